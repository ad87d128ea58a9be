"""The stress test in the App: ``stress_scene(count)``'s scripted chains shown in place of the user's scene, kept
aside meanwhile by :class:`SceneAside` (shared with the race), which refuses saves; a load forgets the mode."""

from __future__ import annotations

from ikplayground.scene import Scene, default_scene, drive_stress, stress_scene

STRESS_CHAINS = 1000  # what the panel's button starts


class SceneAside:
    """What the stress test and the race share; a subclass has ``on``, ``forget()``, ``BACK`` (the words
    when the kept scene is back) and ``refusal(name)``."""

    BACK = ""

    def __init__(self, app):
        self.app = app
        self.kept: Scene | None = None  # the user's scene, kept aside while the mode runs

    @property
    def on(self) -> bool:
        raise NotImplementedError

    def forget(self) -> None:
        raise NotImplementedError

    def refusal(self, name: str) -> str:
        raise NotImplementedError

    def stop(self) -> None:
        """Show the scene that was there before the mode started."""
        if not self.on:
            return
        scene = self.kept or default_scene(self.app.scene.stage)
        self.forget()
        self.app.show_scene(scene)
        self.app.say(self.BACK)

    def refuses_save(self, name: str) -> bool:
        """True, saying why, when saving to ``name`` now would save the mode's scene."""
        if not self.on:
            return False
        self.app.say(self.refusal(name), error=True)
        return True


class StressMode(SceneAside):
    """Whether the stress test runs in ``app``, and the scene it keeps aside meanwhile."""

    BACK = "Stress off: your scene is back"

    def __init__(self, app):
        super().__init__(app)
        self.count = 0  # chains in the stress scene while it runs, else 0

    @property
    def on(self) -> bool:
        """Whether the stress test runs."""
        return self.count > 0

    def start(self, count: int) -> None:
        """Show a stress scene of ``count`` chains (the user's scene is kept)."""
        app = self.app
        app.race.stop()  # its scene is not the user's: the race gives it back first
        if not self.on:
            self.kept = app.scene
        self.count = count
        app.show_scene(stress_scene(count, app.scene.stage, seed=app.scene.seed))
        app.panel.show_stress(True)
        chains = f"{count} chain{'' if count == 1 else 's'}"
        app.say(f"Stress: {chains} on scripted paths (the button again restores your scene)")

    def toggle(self, count: int = STRESS_CHAINS) -> None:
        if self.on:
            self.stop()
        else:
            self.start(count)

    def forget(self) -> None:
        """Leave stress mode without touching the scene shown."""
        self.count = 0
        self.kept = None
        self.app.panel.show_stress(False)

    def drive(self) -> bool:
        """Move the stress scene's targets for the coming step; False when it is not on."""
        if self.on:
            drive_stress(self.app.scene, self.app.scene.steps)
        return self.on

    def refusal(self, name: str) -> str:
        return (f"Not saved: the stress test is on, and {name} would get its {self.count} scripted chains. "
                f"Press \"{self.app.panel.stress_button.text}\" for your scene, then save.")
