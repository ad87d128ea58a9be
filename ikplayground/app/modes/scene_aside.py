"""A mode that shows a scene of its own in place of the user's (the stress test, the race).

The user's scene is kept aside while the mode runs and shown again, as it was,
when it stops; saving meanwhile is refused (the file would get the mode's
chains); loading a file forgets the mode (the file is the user's scene now).
"""

from __future__ import annotations

from ikplayground.scene import Scene, default_scene


class SceneAside:
    """What the stress test and the race share: the kept scene, stopping, refusing saves.

    A subclass has ``on``, ``forget()`` (leave the mode without touching the scene shown),
    ``BACK`` (what the status line says when the kept scene is back) and
    :meth:`refusal` (why a save to ``name`` is refused).
    """

    BACK = ""

    def __init__(self, app):
        self.app = app
        self._kept: Scene | None = None  # the user's scene

    @property
    def on(self) -> bool:
        raise NotImplementedError

    def forget(self) -> None:
        raise NotImplementedError

    def refusal(self, name: str) -> str:
        raise NotImplementedError

    @property
    def kept(self) -> Scene | None:
        """The user's scene, kept aside while the mode runs (None when it does not)."""
        return self._kept

    def stop(self) -> None:
        """Show the scene that was there before the mode started."""
        if not self.on:
            return
        scene = self._kept or default_scene(self.app.scene.stage)
        self.forget()
        self.app.show_scene(scene)
        self.app.say(self.BACK)

    def refuses_save(self, name: str) -> bool:
        """True (and the status line says why) when saving to ``name`` now would save the mode's scene."""
        if not self.on:
            return False
        self.app.say(self.refusal(name), error=True)
        return True
