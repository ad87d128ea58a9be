"""What is drawn around and over the stage each frame, after the scene: the status line, the F1 help or the
message log, the panel, and an error box over everything. Screen px."""

from __future__ import annotations

import pygame

from ikplayground.app.draw.help_view import LOG_FOOT, draw_help, log_content
from ikplayground.app.draw.overlay import draw_error, draw_status

ERROR_MIN_WIDTH = 420  # px: an error box narrower than this spans the whole window


def draw_chrome(app, stage: pygame.Rect, facts: str) -> None:
    """Draw ``app``'s status line (``facts`` and the message), its help or message log over ``stage``, the
    panel (its Math and Keep pages brought up to date first) and the error box, if a message is an error."""
    screen, status = app.screen, app.status_rect
    message, error = app.status.shown(app.time)
    draw_status(screen, status, facts, message, app.fonts)
    if app.show_help:
        chain = app.scene.selected
        draw_help(screen, stage, app.fonts, chain.solver if chain is not None else None, app.help_pane)
    elif app.status.log_open:
        app.log_pane.draw(screen, stage, app.fonts, "Messages", log_content(app.status.log), LOG_FOOT)
    app.panel.math_page.update(app.scene.selected, app.math.metrics, app.race.table, app.scene.obstacles)
    app.panel.keep_page.update(app.history, app.record.summary())
    app.panel.keep_page.timeline.update(app.timeline)
    app.ui.draw_ui(screen)
    if error:  # over everything, and across the panel when the stage is too narrow to read it
        if status.width < ERROR_MIN_WIDTH:
            status = pygame.Rect(0, status.y, screen.get_width(), status.height)
        draw_error(screen, status, error, app.fonts)
