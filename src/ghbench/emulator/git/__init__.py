"""Real git behind the emulator: objects written in Python, git run for diffs, merges,
serving and imports.

``objects``  git's object format (ids, trees, commits), pure
``storage``  one bare repository per emulated repository: in memory, under ``--state``,
             or in a temporary directory when git itself is needed
``diff``     ``git diff-tree``: a diff's files, line counts and patches
``command``  running git with a clean environment, in its own process group
``cgi``      ``git http-backend`` behind an ASGI request, streamed (``git_http.py`` decides
             who may)
"""
