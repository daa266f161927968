# SPDX-License-Identifier: Apache-2.0
"""union_length(intervals): the total length covered by (start, end) intervals, overlaps counted
once (GPU busy time from a report's kernel and memcpy rows)."""


def union_length(intervals):
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return total if cur_e is None else total + (cur_e - cur_s)
