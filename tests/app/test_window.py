"""The window's surface goes to an X server by SDL's shared-memory path, not an OpenGL texture."""

from __future__ import annotations

import os

import pygame
import pytest

from ikplayground.app import window


@pytest.fixture
def no_hint(monkeypatch):
    monkeypatch.delenv(window.FRAMEBUFFER_HINT, raising=False)
    return monkeypatch


def test_on_x11_the_texture_framebuffer_is_turned_off(no_hint):
    no_hint.setattr(pygame.display, "get_driver", lambda: "x11")
    assert window.prefer_x11_framebuffer() is True
    assert os.environ[window.FRAMEBUFFER_HINT] == "0"


def test_a_users_own_setting_is_kept(no_hint):
    no_hint.setattr(pygame.display, "get_driver", lambda: "x11")
    no_hint.setenv(window.FRAMEBUFFER_HINT, "opengl")
    assert window.prefer_x11_framebuffer() is False
    assert os.environ[window.FRAMEBUFFER_HINT] == "opengl"


@pytest.mark.parametrize("driver", ["wayland", "dummy", "windows", "cocoa"])
def test_other_drivers_are_left_alone(no_hint, driver):
    no_hint.setattr(pygame.display, "get_driver", lambda: driver)
    assert window.prefer_x11_framebuffer() is False
    assert window.FRAMEBUFFER_HINT not in os.environ
