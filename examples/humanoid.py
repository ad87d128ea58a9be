"""A humanoid from the library alone: one hand follows the mouse, the other a circle, the feet hold the floor."""
import math
import sys

import pygame
from ikplayground.solvers import skeleton_points, solve_skeleton

F = (-math.pi, math.pi)  # a free joint
#          hips   spine        neck         head         arm  forearm    arm  forearm    thigh shin      thigh shin
parents = [-1,    0,           1,           2,           1,   4,         1,   6,         0,    8,        0,    10]
lengths = [12,    70,          14,          26,          45,  42,        45,  42,        70,   66,       70,   66]
angles = [-1.57,  0,           0,           0,           2.9, -0.3,      -2.9, -0.3,     3.0,  0.1,      -3.0, 0.1]
limits = [(-2.1, -1.0), (-0.4, 0.4), (-0.5, 0.5), (-0.5, 0.5), F, (-2.6, 0), F, (-2.6, 0), F, (0, 2.5), F, (0, 2.5)]
root = (320, 330)  # the hips, pixels, y down
pygame.display.init()
screen, clock = pygame.display.set_mode((640, 480)), pygame.time.Clock()
for frame in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10**9):  # (a frame count: for the tests)
    if any(e.type == pygame.QUIT for e in pygame.event.get()):
        break
    targets = {5: pygame.mouse.get_pos(), 7: (320 + 90 * math.cos(frame / 60), 250 + 60 * math.sin(frame / 60)),
               9: (290, 440), 11: (350, 440)}  # bone: where its end goes
    angles = solve_skeleton(parents, root, angles, lengths, targets, limits=limits).angles
    ends = skeleton_points(parents, root, angles, lengths)
    screen.fill((22, 25, 32))
    for bone, parent in enumerate(parents):
        pygame.draw.line(screen, (240, 170, 80), root if parent < 0 else ends[parent], ends[bone], 9)
    pygame.draw.circle(screen, (240, 170, 80), ends[3], 18)
    pygame.display.flip()
    clock.tick(60)
