"""The solver race in the App: a :class:`~ikplayground.insight.race.Race` built from the selected chain, shown
in place of the user's scene as the stress test is (the two exclude each other)."""

from __future__ import annotations

from ikplayground.app.draw.annotate import TAG, Notes
from ikplayground.app.draw.badges import BadgeFont
from ikplayground.app.draw.render import chain_colour
from ikplayground.app.modes.stress_mode import SceneAside
from ikplayground.insight.race import Race, RaceRow, racer, racer_label


class RaceMode(SceneAside):
    """Whether the race runs in ``app``, its state, and the scene it keeps aside."""

    BACK = "Race over: your scene is back"

    def __init__(self, app):
        super().__init__(app)
        self.race: Race | None = None
        self.moving = False  # the "Moving target" switch, kept while no race runs
        self.tags = BadgeFont()  # the racers' name tags

    @property
    def on(self) -> bool:
        return self.race is not None

    def toggle(self) -> None:
        self.stop() if self.on else self.start()

    def start(self) -> None:
        """Race the solvers on the selected chain's bones (the user's scene is kept)."""
        app = self.app
        app.stress.stop()  # its scene is not the user's
        template = app.scene.selected
        self.kept = app.scene
        self.race = Race(app.scene.stage, template)
        self.race.set_moving(self.moving)
        app.show_scene(self.race.scene)
        app.view.show_all()  # every racer and the target in view
        app.panel.show_race(True, self.moving)
        solvers = ", ".join(racer_label(c) for c in self.race.scene.chains)
        bones = self.race.scene.chains[0].bones  # (a rig's bone count)
        app.say(f"Race: {solvers} on {bones} bones, one shared target (drag it, or T to set it moving); "
                "R again for your scene")

    def forget(self) -> None:
        """Leave the race without touching the scene shown."""
        if self.race is not None:
            self.app.undo.race_ended()  # its undo entry goes: the race changed nothing of the user's scene
        self.race = None
        self.kept = None
        self.app.panel.show_race(False, self.moving)

    def set_moving(self, on=None) -> None:
        """The moving target on, off, or (None: the key) switched."""
        self.moving = (not self.moving) if on is None else bool(on)
        if self.race is not None:
            self.race.set_moving(self.moving)
        self.app.panel.show_race(self.on, self.moving)
        if self.moving:
            self.app.say("Moving target: the race's target runs a figure-eight" if self.on
                         else "Moving target on: it runs when the race does (R)")
        else:
            self.app.say("Moving target off: drag the target")

    def drive(self) -> None:
        """Before a step: put the shared target where it goes."""
        if self.race is not None:
            self.race.drive()

    def record(self) -> None:
        """After a step: the race table's numbers."""
        if self.race is not None:
            self.race.record()

    def annotate(self, notes: Notes) -> None:
        """A name tag under each racer's root, in its colour, named as in the race table."""
        if self.race is None:
            return
        camera = self.app.view.camera
        for chain, name, world_root in self.race.name_tags():
            root = camera.to_screen(world_root).tolist()  # the tags are placed in screen px
            tag = self.tags.tag(name, chain_colour(chain))
            w = tag.get_width()
            notes.add(tag, root, ("race", racer(chain)), TAG, home=(root[0] - w / 2, root[1] + 14), patch=False)

    def table(self) -> list[RaceRow]:
        return self.race.table() if self.race is not None else []

    def refusal(self, name: str) -> str:
        return (f"Not saved: the race is on, and {name} would get the race's chains. "
                "Press R (or End race) for your scene, then save.")
