"""A text progress bar over the plan's tasks, on stderr."""

import sys


class Progress:
    WIDTH = 30

    def __init__(self, total, stream=None):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = sys.stderr if stream is None else stream
        # On a terminal the bar redraws in place; in a log file every step is a line.
        self.end = "\r" if self.stream.isatty() else "\n"
        self.draw()

    def step(self, failed=False):
        self.done += 1
        self.failed += failed
        self.draw()

    def draw(self):
        filled = self.WIDTH * self.done // self.total if self.total else self.WIDTH
        failed = ""
        if self.failed:
            failed = f", {self.failed} rendition{'s' if self.failed > 1 else ''} failed"
        self.stream.write(f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                          f"{self.done}/{self.total} tasks{failed}{self.end}")
        self.stream.flush()

    def close(self):
        if self.end == "\r":
            self.stream.write("\n")
            self.stream.flush()
