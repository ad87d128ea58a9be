"""The lean UI update: hidden widgets are not updated, shown ones are, and hovering picks what pygame_gui's own
per-layer loop picks."""

import pygame
import pygame_gui
import pytest

from tests.app.conftest import SIZE, frames, post

from ikplayground.app.panel import lean_update


def test_only_the_shown_widgets_are_updated(app):
    widgets = app.ui.get_sprite_group().sprites()
    hidden = [el for el in widgets if not el.visible]
    shown = [el for el in widgets if el.visible]
    assert hidden and shown  # the pages not up are hidden
    calls = []
    for el in widgets:
        el.update = (lambda el: lambda dt: calls.append(el))(el)
    app.ui.update(0.016)
    assert set(calls) == set(shown)
    assert len(calls) == len(shown)


def test_a_widget_shown_again_is_updated_again(app):
    app.panel.show_page("math")
    app.ui.update(0.016)
    label = app.panel.hint  # the Chain page's: hidden now
    seen = []
    label.update = lambda dt: seen.append(dt)
    app.ui.update(0.016)
    assert not seen
    app.panel.show_page("chain")
    app.ui.update(0.016)
    assert seen == [0.016]


@pytest.mark.parametrize("path", [[(50, 50)], [(65, 60)], [(95, 75)], [(400, 300)],
                                  [(50, 50), (65, 60), (95, 75), (400, 300), (50, 50), (130, 90)]])
def test_hovering_picks_what_pygame_gui_picks(path):
    """Along a path of mouse positions: hovered on, hovered off (the lean loop skips the elements it may)."""
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((500, 400))
    results = []
    for lean in (False, True):
        ui = pygame_gui.UIManager((500, 400))
        if lean:
            assert lean_update.install(ui)
        a = pygame_gui.elements.UIButton(pygame.Rect(40, 40, 60, 40), "a", ui)
        b = pygame_gui.elements.UIButton(pygame.Rect(60, 50, 60, 40), "b", ui)  # over a's corner, added later
        c = pygame_gui.elements.UIButton(pygame.Rect(80, 60, 60, 40), "c", ui, starting_height=3)  # a layer up
        hidden = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 500, 400), "h", ui, starting_height=5)
        hidden.hide()
        seen = []
        for at in path:
            ui.mouse_position = at
            ui._handle_hovering(0.016)
            seen.append(([el.hovered for el in (a, b, c, hidden)], ui.hovering_any_ui_element))
        results.append(seen)
        ui.draw_ui(screen)
    assert results[0] == results[1]


def test_install_leaves_a_manager_without_the_private_names_alone():
    class Other:
        pass

    assert not lean_update.install(Other())


def test_the_panel_scrolls_by_the_wheel_and_other_events_skip_the_scroll_bars_hover_walk(app):
    bar = app.panel.scroller.vert_scroll_bar  # the test window is short: the panel scrolls
    walks = []
    walk = bar._check_should_handle_mousewheel_event
    bar._check_should_handle_mousewheel_event = lambda: walks.append(1) or walk()
    x = SIZE[0] - app.panel.width // 2
    pygame.mouse.set_pos((x, 300))
    post(pygame.MOUSEMOTION, pos=(x, 300), rel=(0, 0), buttons=(0, 0, 0))
    frames(app, 2)
    assert not walks  # a motion: the bar never asked who is hovered
    post(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False, precise_x=0.0, precise_y=-3.0)
    frames(app, 20)
    assert walks and bar.scroll_position > 0  # a wheel over the panel still scrolls it
