"""Batch runs (engine.klampt.runs / executors): Klamp't's doSim loop, order,
identical results for every executor, errors per sample, lost workers,
early stops. These use the stand-in simulator of fakes.py (fast, no
physics); test_batch_sim.py runs the real Simulator."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import distributed
import pytest

from engine.klampt import runs
from engine.klampt.executors import LocalPool, runner_for
from engine.world import parse_world
from tests.engine.klampt import fakes
from tests.engine.klampt.worlds import ONE_LINK_TEXT

RETURNS = ["robots[0].config", "robots[0].velocity", "rigidObjects[0].transform", "time"]


def spec(sim_init=fakes.pid_init, duration=0.5, simulator=fakes.FakeSimulator, **kw):
    return runs.make_spec(parse_world(ONE_LINK_TEXT), duration, kw.pop("returns", RETURNS),
                          kw.pop("sim_dt", 0.01), (sim_init, kw.pop("sim_step", None),
                                                   kw.pop("sim_term", None)), simulator)


def conditions(n):
    return [{"robots[0].config[0]": -1.0 + 2.0 * i / max(1, n - 1),
             "robots[0].velocity[0]": 0.1 * i, "args": (0.05 * i,)} for i in range(n)]


def without_wall(results):
    return [{k: v for k, v in r.items() if k != "wall_clock_time"} for r in results]


def test_one_run_follows_klampts_loop():
    calls = []

    def init(sim, target):
        calls.append(("init", target))
        fakes.pid_init(sim, target)

    def step(sim, target):
        calls.append(("step", round(sim.getTime(), 9)))

    res = runs.simulate(spec(init, sim_step=step), {"robots[0].config[0]": 1.0, "args": (0.5,)})
    assert calls[0] == ("init", 0.5)
    assert [c[1] for c in calls[1:]] == [round(0.01 * k, 9) for k in range(50)]
    assert res["time"] == 0.5 and res["status"] == "normal"
    assert set(res) == {*RETURNS, "status", "wall_clock_time"}
    assert res["robots[0].config"][0] == pytest.approx(0.5, abs=0.1)


def test_simterm_stops_early_and_time_counts_outer_steps():
    res = runs.simulate(spec(sim_term=fakes.stop_after_half_second, duration=2.0), {})
    assert res["time"] == 0.5
    # 5 s in steps of 0.01 s are 500 steps (Klamp't's t += dt would run 501)
    assert runs.simulate(spec(duration=5.0, returns=["time"]), {})["time"] == 5.0


def test_simulator_only_items_are_applied_after_the_build():
    res = runs.simulate(spec(sim_init=None, duration=0.0, returns=["robots[0].velocity"]),
                        {"robots[0].velocity[0]": 0.75})
    assert res["robots[0].velocity"] == [0.75]


def test_trace_records_every_outer_step():
    res = runs.simulate(spec(duration=0.05, returns=["time"]), {}, trace=True)
    assert res["time"] == pytest.approx(0.05)
    assert len(res["status"]) == 6


def test_default_return_items():
    res = runs.simulate(spec(returns=None, duration=0.02), {})
    assert {"time", "rigidObjects[0].transform", "rigidObjects[0].velocity",
            "controllers[0].commandedConfig", "controllers[0].sensedVelocity"} <= set(res)


def test_bad_steps_are_refused():
    with pytest.raises(ValueError, match="simDt must be > 0"):
        spec(sim_dt=0.0)


def test_results_are_identical_for_every_executor_and_in_sample_order():
    s, ics = spec(), conditions(6)
    serial = without_wall([runs.run_task(s, ic) for ic in ics])
    arrived = []
    pooled = runs.run_all(runner_for(None, 2), s, ics, on_result=lambda i, r: arrived.append(i))
    one = runs.run_all(runner_for(ProcessPoolExecutor(1), None), s, ics)
    with ThreadPoolExecutor(2) as threads:
        threaded = runs.run_all(runner_for(threads, None), s, ics)
    assert sorted(arrived) == list(range(6))
    for outcome in (pooled, one, threaded):
        assert without_wall(outcome.results) == serial
    assert [r["robots[0].config"] for r in serial] != [serial[0]["robots[0].config"]] * 6


def test_a_run_that_raises_is_reported_in_its_result():
    out = runs.run_all(runner_for(None, 2), spec(fakes.fail_when_negative), conditions(4))
    bad, good = out.results[:2], out.results[2:]
    for r in bad:
        assert r["error"] == "ZeroDivisionError: negative start"
        assert "fail_when_negative" in r["traceback"] and r["status"] == "error"
    assert all("error" not in r for r in good)


def test_unpicklable_callbacks_are_refused_for_processes_not_threads():
    s = spec(lambda sim: None)
    with pytest.raises(TypeError, match="simInit <function .*<lambda>.* cannot be sent to "
                                        "worker processes .*module-level function"):
        runs.run_all(runner_for(None, 1), s, conditions(1))
    with ThreadPoolExecutor(1) as threads:
        assert runs.run_all(runner_for(threads, None), s, conditions(1)).done == 1


def test_workers_inherit_the_numba_cache_dir():
    runner = runner_for(None, 1)
    try:
        got = runner.submit(fakes.numba_cache_dir).result()
    finally:
        runner.close(cancel=False)
    assert got == os.environ.get("NUMBA_CACHE_DIR")


def test_a_killed_worker_costs_a_retry_not_a_sample():
    runner = runner_for(None, 2)
    assert isinstance(runner, LocalPool)
    killed = []

    def kill_one(i, result):
        if not killed:
            pid = runner.worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    s, ics = spec(simulator=fakes.SlowFakeSimulator, duration=0.3), conditions(6)
    out = runs.run_all(runner, s, ics, on_result=kill_one)
    assert killed and runner.generation >= 1
    assert without_wall(out.results) == without_wall([runs.run_task(s, ic) for ic in ics])


def test_a_sample_that_kills_its_worker_is_retried_then_reported():
    s = spec(fakes.exit_when_negative, duration=0.1)
    ics = conditions(5)  # samples 0 and 1 start negative
    out = runs.run_all(runner_for(None, 2), s, ics, max_retries=1)
    for r in out.results[:2]:
        assert r["error"].startswith("BrokenProcessPool")
        assert r["traceback"] == "the worker running this sample died 2 times"
    assert all("error" not in r for r in out.results[2:])


def test_a_set_stop_event_keeps_what_finished():
    stop = threading.Event()

    def stop_after_two(i, result):
        if sum(r is not None for r in out_results) >= 1:
            stop.set()
        out_results.append(result)

    out_results = []
    out = runs.run_all(runner_for(None, 2), spec(simulator=fakes.SlowFakeSimulator), conditions(8),
                       on_result=stop_after_two, stop=stop)
    assert out.stopped and not out.interrupted
    assert 2 <= out.done < 8
    assert out.results.count(None) == 8 - out.done


def test_dask_local_cluster_gives_the_same_results_and_survives_a_killed_worker():
    s, ics = spec(simulator=fakes.SlowFakeSimulator, duration=0.3), conditions(6)
    serial = without_wall([runs.run_task(s, ic) for ic in ics])
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        out = runs.run_all(runner_for(client, None), s, ics)
        assert without_wall(out.results) == serial
        killed = []

        def kill_one(i, result):
            if not killed:
                victim = sorted(client.scheduler_info()["workers"])[0]
                pid = client.run(os.getpid, workers=[victim])[victim]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        out = runs.run_all(runner_for(client.get_executor(), None), s, ics, on_result=kill_one)
        assert killed
        assert without_wall(out.results) == serial
