# Accepted (multi-file Python): the main file runs the solver of its sibling module willow.py,
# kattis-willow's accepted submission, which the tests copy beside it.
import sys

import willow

sys.setrecursionlimit(20000)
willow.main()
