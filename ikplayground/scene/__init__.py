"""The playground's model without a window: chains, snake steering, the scene.

Nothing here imports pygame.
"""
