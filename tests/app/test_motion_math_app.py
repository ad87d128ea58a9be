"""The Math page over secondary motion in the real App, by posted events: the springs preset's tied rope, its path
chain and its spider, each clicked with the Math tab open (their velocity arrows, rest ghosts and the card's rule)."""

from __future__ import annotations

import numpy as np
import pytest

from ikplayground.insight.primitives import Label, Polyline
from tests.app.conftest import check, choose, click, drag, frames, press_button


def spy(app, monkeypatch) -> tuple[list, list]:
    """The primitives the Math painter draws each frame, and the texts the card writes."""
    drawn: list = []
    texts: list = []
    painter, card = app.math.painter, app.panel.math_page.card
    draw, text = painter.draw, card.text

    def drawing(surface, primitives, notes=None):
        drawn.append(list(primitives))
        draw(surface, primitives, notes)

    def writing(words, pos, *args, **kw):
        texts.append(words)
        return text(words, pos, *args, **kw)

    monkeypatch.setattr(painter, "draw", drawing)
    monkeypatch.setattr(card, "text", writing)
    return drawn, texts


def shown(drawn) -> tuple[list, list, list]:
    """The last frame's velocity shafts, dashed ghosts and labels."""
    prims = drawn[-1]
    shafts = [p for p in prims if isinstance(p, Polyline) and p.role == "velocity" and len(p.points) == 2]
    ghosts = [p for p in prims if isinstance(p, Polyline) and p.role == "ghost" and p.dashed]
    return shafts, ghosts, [p for p in prims if isinstance(p, Label)]


@pytest.mark.slow
def test_the_math_page_shows_the_springs_ropes_paths_and_spiders_motion(app, monkeypatch):
    choose(app, app.panel.preset_menu, "springs")
    press_button(app, app.panel.tabs["math"])
    check(app, app.panel.show_math_box, True)
    drawn, texts = spy(app, monkeypatch)
    camera = app.view.camera
    scene = app.scene

    rope = next(c for c in scene.chains if c.is_rope and c.fields["pin_end"][0] > 0)
    click(app, camera.to_screen(rope.fields["points"][len(rope.fields["points"]) // 2]))
    assert scene.selected is rope
    target = rope.fields["target"].copy()
    drag(app, camera.to_screen(target), camera.to_screen(target + (-60.0, 40.0)), steps=3)  # it swings
    frames(app, 2)
    shafts, ghosts, labels = shown(drawn)
    assert len(shafts) >= 3 and len(ghosts) == 1
    ends = camera.to_screen(np.stack([rope.fields["root"], rope.fields["target"]]))
    np.testing.assert_allclose(ghosts[0].points[[0, -1]], ends, atol=1e-6)  # the catenary through its ends
    assert any("catenary" in p.text for p in labels) and any(p.text.endswith("px/step") for p in labels)
    assert any(t.startswith("Tied at both ends: gravity") for t in texts)

    path = next(c for c in scene.chains if c.is_path)
    click(app, camera.to_screen(path.fields["points"][len(path.fields["points"]) // 2]))
    assert scene.selected is path and path.fields["slide"][0] != 0.0
    texts.clear()
    frames(app, 3)
    shafts, ghosts, labels = shown(drawn)
    assert len(shafts) == len(path.fields["points"]) and not ghosts  # it slides: every joint moves
    assert any(t.startswith("Sliding") for t in texts)

    spider = next(c for c in scene.chains if c.is_walker)
    click(app, camera.to_screen(spider.fields["body"]))
    assert scene.selected is spider
    texts.clear()
    frames(app, 20)
    shafts, ghosts, labels = shown(drawn)
    used = int((spider.fields["app_lengths"][:, 0] > 0).sum())
    assert used >= 2 and len(ghosts) == used and shafts  # its antennae bounce as it walks
    assert any("leg reach" in p.text for p in labels)
    assert any(t.startswith("Appendages jiggle (Verlet)") for t in texts)
