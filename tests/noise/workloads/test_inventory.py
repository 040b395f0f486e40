"""A unittest suite (run with `-m unittest test_inventory`): setUp, subTests, assertions."""
import unittest


class Inventory:
    def __init__(self):
        self.stock = {}

    def add(self, name, qty):
        if qty <= 0:
            raise ValueError("qty must be positive")
        self.stock[name] = self.stock.get(name, 0) + qty

    def take(self, name, qty):
        have = self.stock.get(name, 0)
        if qty > have:
            raise KeyError(name)
        self.stock[name] = have - qty
        return self.stock[name]

    def value(self, prices):
        return sum(prices.get(k, 0) * v for k, v in self.stock.items())


class InventoryTest(unittest.TestCase):
    def setUp(self):
        self.inv = Inventory()
        for i in range(200):
            self.inv.add("item%d" % (i % 40), i % 7 + 1)

    def test_take_until_empty(self):
        for i in range(40):
            name = "item%d" % i
            while self.inv.stock[name]:
                self.inv.take(name, 1)
            with self.assertRaises(KeyError):
                self.inv.take(name, 1)

    def test_value(self):
        prices = {"item%d" % i: i * 0.5 for i in range(40)}
        for _ in range(200):
            self.assertGreater(self.inv.value(prices), 0)

    def test_bad_qty(self):
        for q in range(-50, 1):
            with self.subTest(q=q):
                with self.assertRaises(ValueError):
                    self.inv.add("x", q)

    def test_many_adds(self):
        n = 20000
        for i in range(n):
            self.inv.add("n%d" % (i % 100), 1)
        self.assertEqual(sum(self.inv.stock[k] for k in self.inv.stock if k.startswith("n")), n)


if __name__ == "__main__":
    unittest.main()
