"""The seed's Monte Carlo study on the real Simulator (engine.klampt.batch):
the one-link robot, PID kP 20, kI 8, kD 5 towards 0, start angles uniform in
[-pi, pi]; a smaller N and shorter runs than the seed's 100 x 5 s."""

from __future__ import annotations

import math
import os
import random
import signal
from concurrent.futures import ProcessPoolExecutor

import distributed
import pytest

from engine.klampt import batch
from engine.world import read_world
from tests.engine.klampt.worlds import write_one_link

RETURNS = ["robots[0].config", "robots[0].velocity"]


def pid_init(sim) -> None:
    c = sim.controller(0)
    c.setPIDCommand([0.0], [0.0])
    c.setPIDGains([20.0], [8.0], [5.0])


def samplers(seed=16):
    rng = random.Random(seed)
    return {"robots[0].config[0]": lambda: rng.uniform(-math.pi, math.pi)}


def strip(pairs):
    return [(ic, {k: v for k, v in r.items() if k != "wall_clock_time"}) for ic, r in pairs]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return write_one_link(tmp_path_factory.mktemp("batch"))


def test_dosim_drives_the_link_towards_zero(world):
    res = batch.doSim(world, 3.0, {"robots[0].config[0]": 1.0}, RETURNS, simInit=pid_init)
    assert abs(res["robots[0].config"][0]) < 0.2
    assert res["time"] == 3.0 and res["status"] in ("normal", "adaptive time stepping")
    assert read_world(world).find_by_def("ONE_LINK") is not None


def test_the_seed_study_is_identical_for_every_executor(world):
    serial = [(ic, batch.doSim(world, 0.5, ic, RETURNS, simInit=pid_init))
              for ic in batch.sample_conditions(samplers(), 6)]
    pooled = batch.monteCarloSim(world, 0.5, samplers(), 6, RETURNS, simInit=pid_init)
    one = batch.monteCarloSim(world, 0.5, samplers(), 6, RETURNS, simInit=pid_init,
                              executor=ProcessPoolExecutor(1))
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask = batch.monteCarloSim(world, 0.5, samplers(), 6, RETURNS, simInit=pid_init,
                                   executor=client)
    assert strip(pooled) == strip(serial) == strip(one) == strip(dask)
    assert len({r["robots[0].config"][0] for _, r in pooled}) == 6


def test_a_killed_dask_worker_still_gives_every_sample(world):
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        killed = []

        def kill_one(i, result):
            if not killed:
                victim = sorted(client.scheduler_info()["workers"])[0]
                pid = client.run(os.getpid, workers=[victim])[victim]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        ics = batch.sample_conditions(samplers(), 6)
        out = batch.run_samples(world, 0.5, ics, RETURNS, sim_init=pid_init, executor=client,
                                on_result=kill_one)
    assert killed and out.done == 6
    assert all("error" not in r for r in out.results)


def test_initial_conditions_as_a_dict_of_lists(world):
    res = batch.batchSim(world, 0.1, {"robots[0].config[0]": [0.5, -0.5]}, ["robots[0].config"],
                         simInit=pid_init, workers=1)
    assert res[0]["robots[0].config"][0] == pytest.approx(-res[1]["robots[0].config"][0])
    with pytest.raises(ValueError, match="same length"):
        batch.batchSim(world, 0.1, {"robots[0].config[0]": [0.5], "args": [(), ()]}, None)
