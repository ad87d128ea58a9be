"""A compact cache for pygame_gui 0.6.14's combined theme ids (a work-around).

Its ``build_all_combined_ids`` keys its cache with nested ``str.join`` over the id lists, so the key grows
as the product of their lengths (megabytes four containers deep). :func:`install` keys the cache by the id
tuples and builds the ids as pygame_gui does; without its private ``_get_next_id_node``, nothing changes.
"""

from __future__ import annotations


def _key(ids):
    return None if ids is None else tuple(ids)


def install(theme) -> bool:
    """Replace ``theme.build_all_combined_ids`` with the compact-cache version; False if not possible."""
    walk = getattr(theme, "_get_next_id_node", None)
    original = getattr(theme, "build_all_combined_ids", None)
    if walk is None or original is None:
        return False
    cache: dict[tuple, list[str]] = {}

    def build_all_combined_ids(element_base_ids, element_ids, class_ids, object_ids):
        key = (_key(element_base_ids), _key(element_ids), _key(class_ids), _key(object_ids))
        hit = cache.get(key)
        if hit is not None:
            return hit
        lists = (element_base_ids, element_ids, class_ids, object_ids)
        if any(x is None for x in lists) or len({len(x) for x in lists}) != 1:
            return original(element_base_ids, element_ids, class_ids, object_ids)  # its own checks and errors
        combined: list[str] = []
        if element_ids:
            walk(None, element_base_ids, element_ids, class_ids, object_ids, 0, len(element_ids), combined)
            current = combined[:]
            done = not current
            while not done:
                for i, cid in enumerate(current):
                    dot = cid.find(".")
                    if dot == -1:
                        done = True
                    else:
                        current[i] = cid[dot + 1:]
                        combined.append(current[i])
        cache[key] = combined
        return combined

    theme.build_all_combined_ids = build_all_combined_ids
    return True
