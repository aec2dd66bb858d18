"""A replay worker whose process dies on one job, as under the OOM killer: for the
Ray runner's tests of a dead actor (tests/replay/test_ray.py).

Everything else is the real ReplayWorker on a real browser. Ray restarts a dead
actor with a fresh process, so the count of deaths so far lives in a file.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from finestate_env.replay.live_replay import ReplayJob, ReplayWorker


class DyingReplayWorker(ReplayWorker):
    def __init__(self, poison_id: str, deaths_file: Path, times: int) -> None:
        super().__init__()
        self.poison_id = poison_id
        self.deaths_file = Path(deaths_file)
        self.times = times

    def __call__(self, job: ReplayJob) -> dict:
        if job.prediction.id == self.poison_id:
            died = self.deaths_file.read_text().split() if self.deaths_file.exists() else []
            if len(died) < self.times:
                with open(self.deaths_file, "a") as f:
                    f.write(f"{os.getpid()}\n")
                os.kill(os.getpid(), signal.SIGKILL)
        return super().__call__(job)
