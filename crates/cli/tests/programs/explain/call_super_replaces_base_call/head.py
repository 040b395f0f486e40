"""The same prober calling its base class's reset through `super().reset()`."""


class Base:
    def __init__(self):
        self.state = 0
        self.seen = 0

    def reset(self):
        self.state = 0


class Prober(Base):
    def reset(self):
        super().reset()
        self.seen = 0


def main():
    p = Prober()
    for _ in range(30000):
        p.reset()


main()
