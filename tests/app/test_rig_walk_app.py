"""A rig walking in the real App: the humanoid preset driven with posted arrow keys, Auto walk from the panel, its
ground drawn once it walks, the setting undone, a hand held by the mouse left where it is.

The App draws and drags rigs with app/draw/rig_draw.py and the rig parts of app/drag.py (issue 26's App side):
where that is not there yet, these are skipped.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from tests.app.conftest import check, choose, frames, key_down, key_up, mouse_down, mouse_up

def humanoid(app):
    choose(app, app.panel.preset_menu, "humanoid")
    rig = app.scene.chains[0]
    assert rig.is_rig
    return rig


@pytest.mark.slow
def test_the_arrow_keys_walk_the_humanoid_and_its_ground_is_drawn(app):
    rig = humanoid(app)
    frames(app, 10)
    assert app.renderer._ground._key is not None  # it has feet: the ground it stands and walks on is drawn
    terrain = app.scene.terrain
    for key, sign in ((pygame.K_RIGHT, 1.0), (pygame.K_LEFT, -1.0)):
        x0 = float(rig.fields["root"][0])
        key_down(key)
        for _ in range(90):
            frames(app)
            f = rig.fields
            feet = np.flatnonzero((f["gait"] >= 0) & (f["state"] < 0.5))
            ground = terrain.height_at(f["targets"][feet, 0])
            assert np.all(np.abs(f["targets"][feet, 1] - ground) <= 0.5)  # a planted foot's target on the ground
        key_up(key)
        frames(app)
        assert sign * (float(rig.fields["root"][0]) - x0) > 80  # it walked that way
        assert rig.fields["facing"][0] == sign  # facing it
    assert app.renderer._ground._key is not None  # and the ground it walks on is drawn
    frames(app, 60)  # let go: it slows to a stop and stands
    root = rig.fields["root"].copy()
    frames(app, 5)
    np.testing.assert_array_equal(rig.fields["root"], root)


@pytest.mark.slow
def test_auto_walk_from_the_panel_walks_the_rig_on_its_own_and_undoes(app):
    rig = humanoid(app)
    app.scene.select(rig)
    app.panel.sync(rig)
    frames(app)
    assert {"rig_step_threshold", "rig_step_height", "walk_speed"} <= set(app.panel.params)
    assert app.panel.rig_walk.is_enabled and not app.panel.rig_walk.is_checked
    check(app, app.panel.rig_walk, True, k=60)
    assert rig.fields["auto"][0] == 1.0 and rig.fields["velocity"][0] != 0.0
    app.apply("undo")
    frames(app, 90)
    assert rig.fields["auto"][0] == 0.0 and rig.fields["velocity"][0] == 0.0  # undone: it slowed to a stop


@pytest.mark.slow
def test_a_hand_the_mouse_holds_stays_put_while_the_rig_walks_and_goes_along_once_let_go(app):
    rig = humanoid(app)
    frames(app, 5)
    hand = int(np.flatnonzero(rig.fields["gait"] < 0)[0])
    where = rig.fields["targets"][hand].copy()
    screen = app.view.camera.to_screen(where)
    mouse_down(app, tuple(np.round(screen).astype(int)))
    assert app.drag is not None and app.drag.part == f"target:{hand}"
    key_down(pygame.K_RIGHT)
    frames(app, 40)
    np.testing.assert_array_equal(rig.fields["targets"][hand], where)  # held: it stays where it was taken
    mouse_up(app, tuple(np.round(screen).astype(int)))
    offset = rig.fields["targets"][hand] - rig.fields["root"]
    frames(app, 20)
    key_up(pygame.K_RIGHT)
    np.testing.assert_allclose(rig.fields["targets"][hand] - rig.fields["root"], offset, atol=1e-9)  # let go: along
