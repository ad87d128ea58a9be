"""A spider's antennae in the real App: they trail as an arrow key walks it, the panel's "Appendages" box turns
them off (held in their rest pose, not drawn), Ctrl+Z turns them back on; drawn headless."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from ikplayground.scene.core.constants import SOLVER_LABELS
from ikplayground.scene.step import appendages
from tests.app.conftest import choose, click, frames, key_down, key_up, rect_centre, tap


def rest_of(chain) -> np.ndarray:
    group = {k: v[None].copy() for k, v in chain.fields.items()}
    appendages.rest_pose(group)
    return group["app_points"][0]


@pytest.mark.slow
def test_a_walked_spider_s_antennae_trail_and_the_panel_turns_them_off_undoably(app, tmp_path):
    choose(app, app.panel.new_chain, SOLVER_LABELS["walker"])
    tap(app, pygame.K_n, unicode="n")
    spider = app.scene.chains[-1]
    assert spider.is_walker and app.scene.selected is spider
    assert {"app_stiffness", "app_damping"} <= set(app.panel.params)
    app.apply("auto_walk", False)
    frames(app, 30)
    start, x0 = spider.fields["app_points"].copy(), float(spider.fields["body"][0])
    key = pygame.K_LEFT if x0 > app.scene.stage[0] / 2 else pygame.K_RIGHT  # toward the middle
    key_down(key)
    lag = []
    for _ in range(60):
        frames(app)
        lag.append(float(np.abs(spider.fields["app_points"] - rest_of(spider)).max()))
    key_up(key)
    frames(app)
    assert abs(float(spider.fields["body"][0]) - x0) > 40.0  # it walked
    assert np.abs(spider.fields["app_points"] - start).max() > 20.0  # its antennae went along
    assert max(lag) > 2.0  # trailing their rest pose
    app.save_screenshot(tmp_path / "antennae.png")
    box = app.panel.setting_rows.boxes["appendages"]
    assert box.visible
    click(app, rect_centre(box))  # the panel's "Appendages" off
    spider = app.scene.selected
    assert spider.fields["app_on"][0] == 0.0
    assert not app.panel.params["app_stiffness"].slider.is_enabled
    frames(app, 5)
    np.testing.assert_allclose(spider.fields["app_points"], rest_of(spider), atol=1e-9)
    app.save_screenshot(tmp_path / "none.png")
    assert (tmp_path / "antennae.png").read_bytes() != (tmp_path / "none.png").read_bytes()
    tap(app, pygame.K_z, pygame.KMOD_CTRL, unicode="z")
    assert app.scene.selected.fields["app_on"][0] == 1.0
