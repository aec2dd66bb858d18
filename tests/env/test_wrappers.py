"""GridActions: the action as grid cells, for value learners (the learning bench's DQN)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

from finestate_env.env.wrappers import GridActions


@pytest.fixture(scope="module")
def radio():
    env = gym.make("FineState-Web-v0", component="radio_group", level=0, viewport=(640, 360),
                   action_type="flat", terminal_obs="skip")
    yield env
    env.close()


@pytest.mark.fast
def test_cells_are_numbered_row_by_row_and_the_last_ones_clipped(radio):
    grid = GridActions(radio, cell=60)  # 640x360: 11 columns (the last 40 px), 6 rows
    assert (grid.cols, grid.rows) == (11, 6)
    assert grid.action_space == spaces.Discrete(66)
    assert grid.centre(0) == (30.0, 30.0)
    assert grid.centre(12) == (90.0, 90.0)  # row 1, column 1
    assert grid.centre(10) == (620.0, 30.0)  # the clipped last column: 600..640
    assert grid.centre(65) == (620.0, 330.0)
    with pytest.raises(ValueError, match="cell 66 is outside 0..65"):
        grid.centre(66)


@pytest.mark.fast
def test_the_action_is_the_cells_centre_in_every_action_frame():
    def lone_switch(**options):
        return gym.make("FineState-Web-v0", component="switch", viewport=(640, 360),
                        scene="control", **options)

    flat = GridActions(lone_switch(action_type="flat"), cell=20)
    points = GridActions(lone_switch(), cell=20, points=2)
    normalized = GridActions(lone_switch(coord_mode="normalized"), cell=20)
    try:  # made, not reset: no browser page is needed to map actions
        assert np.array_equal(flat.action(33), np.float32([-0.90625, -0.8333333,
                                                            -0.90625, -0.8333333]))
        assert points.action_space == spaces.MultiDiscrete([576, 576])
        mapped = points.action(np.array([0, 575]))
        assert mapped["p0"].tolist() == [10.0, 10.0] and mapped["p1"].tolist() == [630.0, 350.0]
        assert normalized.action(575)["p1"].tolist() == [630 / 640, np.float32(350 / 360)]
        with pytest.raises(ValueError, match="is 1 cell"):
            flat.action(np.array([1, 2]))
    finally:
        for env in (flat, points, normalized):
            env.close()


@pytest.mark.fast
@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_a_cell_size_that_is_no_whole_positive_number_is_refused(radio, bad):
    with pytest.raises(ValueError, match="cell must be a whole number"):
        GridActions(radio, cell=bad)


def test_a_tap_on_the_cell_holding_the_goal_box_reaches_the_goal_and_a_far_one_does_not(radio):
    grid = GridActions(radio, cell=20)
    for seed in range(4):
        _, info = grid.reset(seed=seed)
        x1, y1, x2, y2 = info["boxes"]["current"]["goal"]
        inside = [k for k in range(grid.action_space.n)
                  if x1 <= grid.centre(k)[0] <= x2 and y1 <= grid.centre(k)[1] <= y2]
        assert inside, f"seed {seed}: no cell centre in the goal box {info['boxes']}"
        *_, info = grid.step(inside[len(inside) // 2])
        assert info["success"] is True
        grid.reset(seed=seed)
        *_, info = grid.step(0)  # the top-left corner: no control there
        assert info["success"] is False
