"""A prober whose reset calls its base class's reset explicitly: `Base.reset(self)`."""


class Base:
    def __init__(self):
        self.state = 0
        self.seen = 0

    def reset(self):
        self.state = 0


class Prober(Base):
    def reset(self):
        Base.reset(self)
        self.seen = 0


def main():
    p = Prober()
    for _ in range(30000):
        p.reset()


main()
