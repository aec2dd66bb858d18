"""One oracle episode per family of FineState-Mobile-v0 on the device adb sees (backend="adb")."""

import adbutils
import gymnasium as gym

from finestate_env.agents.scripted import OracleAgent

device = adbutils.AdbClient().device_list()[0]
width, height = device.window_size(landscape=False)
env = gym.make("FineState-Mobile-v0", backend="adb", viewport=(width, height),
               backend_options={"serial": device.serial, "timeout_s": 30})
try:
    for component in ("slider", "switch", "date_picker", "drag_reorder"):
        obs, info = env.reset(seed=0, options={"component": component})
        *_, step = env.step(OracleAgent().act(obs, info))
        print(f"{component:<14} goal {step['goal_state']!r:<24} state {step['state']!r:<24} "
              f"{step['crosscheck']}")
finally:
    env.close()
