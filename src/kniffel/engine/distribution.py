"""A distribution over whole numbers: the final totals of :mod:`kniffel.engine.chances` and the
exact endgames of :mod:`kniffel.engine.endgame`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Distribution:
    """A distribution over whole numbers: ``probs[k]`` is the probability of ``offset + k``."""

    offset: int
    probs: tuple[float, ...]

    @classmethod
    def point(cls, value: int) -> Distribution:
        """Certainly ``value``."""
        return cls(value, (1.0,))

    @property
    def mean(self) -> float:
        return self.offset + sum(k * p for k, p in enumerate(self.probs))

    @property
    def variance(self) -> float:
        m = self.mean - self.offset
        return sum((k - m) ** 2 * p for k, p in enumerate(self.probs))

    def quantile(self, q: float) -> int:
        """The smallest value ``x`` with P(X ≤ x) ≥ ``q``."""
        acc = 0.0
        for k, p in enumerate(self.probs):
            acc += p
            if acc >= q - 1e-12:
                return self.offset + k
        return self.offset + len(self.probs) - 1

    def shifted(self, by: int) -> Distribution:
        """The distribution of X + ``by``."""
        return Distribution(self.offset + by, self.probs)


__all__ = ["Distribution"]
