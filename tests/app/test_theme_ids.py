"""The compact theme-id cache gives every widget the ids pygame_gui itself would."""

import pygame_gui
import pytest
from pygame_gui.core.ui_appearance_theme import UIAppearanceTheme

from ikplayground.app.panel import theme_ids


def widgets(app):
    return [el for el in app.ui.get_sprite_group().sprites() if hasattr(el, "element_ids")]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 720), (640, 400)], ids=["flat", "scrolling"])
def test_combined_ids_match_pygame_gui_for_every_widget(app, size):
    app.resize(size)
    theme = app.ui.get_theme()
    reference = UIAppearanceTheme.build_all_combined_ids
    checked = 0
    for el in widgets(app):
        args = (el.element_base_ids, el.element_ids, el.class_ids, el.object_ids)
        ours = theme.build_all_combined_ids(*args)
        fresh = UIAppearanceTheme(theme._resource_loader, theme._locale)
        assert ours == reference(fresh, *args), el.element_ids
        checked += 1
    assert checked > 40  # the whole panel, nested widgets included


@pytest.mark.slow
def test_no_giant_keys_are_kept(app):
    assert all(len(str(k)) < 100_000 for k in app.ui.get_theme().unique_theming_ids)


def test_install_leaves_a_theme_without_the_private_walk_alone():
    class Other:
        def build_all_combined_ids(self, *args):
            return ["x"]

    other = Other()
    assert theme_ids.install(other) is False
    assert other.build_all_combined_ids(None, None, None, None) == ["x"]
    assert pygame_gui.__name__ == "pygame_gui"
