"""What runs inside controller processes: the `controller` package (its folder
is put first on a controller's PYTHONPATH by `engine.controllers.process`)."""
