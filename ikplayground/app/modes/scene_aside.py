"""A mode that shows a scene of its own in place of the user's (the stress test, the race): the user's scene is
kept aside and shown again when it stops; saving meanwhile is refused; a load forgets the mode.
"""

from __future__ import annotations

from ikplayground.scene import Scene, default_scene


class SceneAside:
    """What the stress test and the race share; a subclass has ``on``, ``forget()``, ``BACK`` (the words
    when the kept scene is back) and ``refusal(name)``.
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
        """The user's scene, kept aside while the mode runs."""
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
        """True, saying why, when saving to ``name`` now would save the mode's scene."""
        if not self.on:
            return False
        self.app.say(self.refusal(name), error=True)
        return True
