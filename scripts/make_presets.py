"""Make the preset scenes shipped in ``assets/scenes/``: one scene file each.

    python scripts/make_presets.py [--out DIR] [--only NAME,...]

Each preset is built with the scene's own API (the calls the panel makes) on the
default 980 x 694 stage and saved with ``save_scene``, so every preset is
a file the loader accepts, in the current format. The tests load each one, run
it and save it again. What each preset shows is in
``ikplayground.scene.build.presets.PRESETS``; the constants of ``seeds`` are the
tutorials' (docs/sources.md).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ikplayground.scene import (  # noqa: E402  # noqa: E402
    PRESETS,  # noqa: E402
    Scene,
    default_scene,
    humanoid_rig,
    make_ik_chain,
    quadruped_rig,
    save_scene,
    straight_snake,
    stress_scene,  # noqa: E402
    Terrain,
)

STAGE = (980.0, 694.0)  # the stage of a 1280 x 720 window


def animate(scene: Scene, chain, path: str, speed: float, size: float) -> None:
    """Set ``chain``'s target moving (the panel's Motion row, speed and size)."""
    scene.set_setting(chain, "motion_speed", speed)
    scene.set_setting(chain, "motion_size", size)
    scene.set_setting(chain, "motion", path)


def default() -> Scene:
    """The opening scene, its targets gently moving and its snake wandering (the keys take it over)."""
    scene = default_scene(STAGE)
    arm, ccd, fabrik, dls, snake = scene.chains
    animate(scene, arm, "circle", 1.0, 36.0)
    for chain in (ccd, fabrik, dls):
        animate(scene, chain, "figure-eight", 1.4, 46.0)
    scene.set_setting(snake, "wander", True)
    scene.select(arm)
    return scene


def seeds() -> Scene:
    """The four tutorials side by side, each with its own constants."""
    scene = Scene(STAGE)
    w, h = scene.stage
    # the Game Maker tutorial (lower left): a two-bone arm with a sprite stretched over each bone
    gm = make_ik_chain("two-bone", (w * 0.10, h * 0.92), (-math.pi / 3, math.pi / 2), (110.0, 90.0),
                             (w * 0.22, h * 0.70), skin="sprite")
    # the raylib demo (upper left): two-bone chains of 100 / 100 px, targets 150 px out, the second mirrored (its
    # MIRROR box)
    raylib = [make_ik_chain("two-bone", (w * x, h * 0.30), (-0.8, 1.6), (100.0, 100.0),
                                  (w * x + 150.0, h * 0.30), mirror=m, skin="capsules")
              for x, m in ((0.06, False), (0.28, True))]
    # the pygame CCD tutorial (right): 4 bones of 100 px, +-3 degrees a step (the default rate limit), a target
    # bouncing at (3, 3) px a step off the stage's edges
    ccd = make_ik_chain("ccd", (w * 0.75, h * 0.50), np.r_[-math.pi / 2, np.zeros(3)], np.full(4, 100.0),
                              (w * 0.80, h * 0.30), limits=np.tile([-math.pi, math.pi], (4, 1)), skin="lines")
    # the Flash snake (lower middle): 10 nodes 40 px apart, +-30 degrees; the arrow keys drive it
    snake = straight_snake((w * 0.62, h * 0.86), math.pi, nodes=10, segment=40.0, snake_skin="blocks")
    scene.add_in_turn((gm, *raylib, ccd, snake))
    animate(scene, ccd, "bounce", 3.0 * math.sqrt(2.0), 80.0)  # (a bounce has no size)
    scene.select(snake)
    return scene


def tentacles() -> Scene:
    """A body of tentacles: CCD, FABRIK and DLS chains under limits reaching up, targets on figure-eights."""
    scene = Scene(STAGE)
    w, h = scene.stage
    up = np.r_[-math.pi / 2, np.zeros(8)]
    chains = []
    for k, x in enumerate(np.linspace(0.14, 0.86, 7)):
        solver = ("ccd", "fabrik", "dls")[k % 3]
        chain = make_ik_chain(solver, (w * x, h * 0.97), up, np.full(9, 34.0),
                                    (w * x + 30.0, h * 0.68), joint_limit=32.0, skin="capsules")
        chains.append(chain)
    scene.add_in_turn(chains)
    for k, chain in enumerate(chains):
        animate(scene, chain, "figure-eight", 1.2 + 0.25 * (k % 3), 60.0 + 12.0 * (k % 4))
    scene.select(chains[3])
    return scene


def snakes() -> Scene:
    """Several snakes with smooth bodies: the selected one is yours (arrow keys), the others wander."""
    scene = Scene(STAGE)
    w, h = scene.stage
    spots = ((0.25, 0.3, 0.0), (0.7, 0.25, 2.5), (0.35, 0.75, -1.2), (0.8, 0.7, 1.9), (0.55, 0.5, 0.7))
    chains = [straight_snake((w * x, h * y), heading, nodes=12 + 2 * k, segment=28.0, wander=k > 0,
                                   snake_skin="body")
              for k, (x, y, heading) in enumerate(spots)]
    scene.add_in_turn(chains)
    scene.select(chains[0])
    return scene


def spider() -> Scene:
    """The procedural walker on its hills and steps."""
    scene = Scene(STAGE)
    walker = scene.new_chain("walker", (STAGE[0] * 0.3, STAGE[1] * 0.5))
    scene.select(walker)
    return scene


RIG_RATE = 30.0  # degrees a step: a walk's legs swing fast (at 3, its feet lag their targets by tens of px)


def rig_ground(scene: Scene) -> None:
    """The rigs' presets' own ground (kept in their files): level under the figure, a low rise to walk over."""
    w, h = scene.stage
    y = h * 0.82
    scene.set_terrain(Terrain([[0.0, y], [w * 0.62, y], [w * 0.74, y - h * 0.04], [w * 0.86, y], [w, y]]))


def on_ground(scene: Scene, x: float) -> tuple[float, float]:
    """Where a rig stands at ``x``: on the scene's terrain, the ground it walks on."""
    return x, float(scene.terrain.height_at(x))


def humanoid() -> Scene:
    """A standing figure side on, its feet on the ground and its hands free to drag; the arrow keys walk it."""
    scene = Scene(STAGE)
    rig_ground(scene)
    w, h = scene.stage
    figure = humanoid_rig(standing_on=on_ground(scene, w * 0.45), height=h * 0.55, skin="capsules",
                          rate_limit=RIG_RATE)
    figure.name = "figure"
    scene.add(figure)
    return scene


def quadruped() -> Scene:
    """A four-legged animal side on, its paws on the ground; the arrow keys walk it."""
    scene = Scene(STAGE)
    rig_ground(scene)
    w, h = scene.stage
    animal = quadruped_rig(standing_on=on_ground(scene, w * 0.35), length=w * 0.26, skin="capsules",
                           rate_limit=RIG_RATE)
    animal.name = "animal"
    scene.add(animal)
    return scene


def crowd() -> Scene:
    """The stress test as a scene: 5,000 chains, their targets on circles and figure-eights, snakes wandering."""
    scene = stress_scene(5000, STAGE)
    for k, chain in enumerate(scene.chains):
        if chain.is_snake:
            scene.set_setting(chain, "wander", True)
        else:
            reach = float(chain.fields["lengths"].sum())
            animate(scene, chain, ("circle", "figure-eight")[k % 2], 0.6 + 0.1 * (k % 7), 0.35 * reach)
    return scene


def springs() -> Scene:
    """Secondary motion: the spider's antennae, a snake's jiggling tail, ropes to drag, a tentacle sliding on a path."""
    scene = Scene(STAGE)
    w, h = scene.stage
    hanging = scene.new_chain("rope", (w * 0.08, h * 0.06))
    scene.move_target(hanging, (w * 0.08, h * 0.06 + 240.0))
    bridge = scene.new_chain("rope", (w * 0.16, h * 0.10))
    bridge = scene.set_setting(bridge, "pin_end", True)
    scene.move_target(bridge, (w * 0.40, h * 0.10))
    snake = straight_snake((w * 0.58, h * 0.22), 0.0, nodes=14, segment=22.0, wander=True, snake_skin="body")
    scene.add(snake)
    snake = scene.set_setting(snake, "jiggle", 0.25)
    snake = scene.set_setting(snake, "jiggle_damping", 0.08)
    tentacle = scene.new_chain("path", (w * 0.78, h * 0.80))
    tentacle = scene.set_setting(tentacle, "slide", 40.0)
    for k, spot in enumerate(((w * 0.92, h * 0.78), (w * 0.86, h * 0.50), (w * 0.98, h * 0.32),
                              (w * 0.80, h * 0.12))):
        scene.move_target(tentacle, spot, f"control:{k}")
    spider = scene.new_chain("walker", (w * 0.30, h * 0.55))
    spider = scene.set_setting(spider, "app_stiffness", 0.1)
    spider = scene.set_setting(spider, "app_damping", 0.08)
    scene.select(hanging)
    return scene


MAKERS = {"default": default, "seeds": seeds, "tentacles": tentacles, "snakes": snakes, "spider": spider,
          "humanoid": humanoid, "quadruped": quadruped, "crowd": crowd, "springs": springs}
assert list(MAKERS) == list(PRESETS), "one maker per preset, in the menu's order"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "assets" / "scenes"))
    parser.add_argument("--only", default=",".join(MAKERS), help="comma-separated preset names")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.only.split(","):
        scene = MAKERS[name]()
        save_scene(scene, out / f"{name}.json")
        print(f"wrote {out / (name + '.json')} ({len(scene.chains)} chains)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
