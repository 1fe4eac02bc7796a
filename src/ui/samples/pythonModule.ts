/** Sample: a Python module with classes, methods and functions (written for Chunkscope). */
export const pythonModule = `"""invoices.py: build invoices from order lines, apply discounts and taxes, and render them as text.

Amounts are integers in minor units (cents) so that sums never pick up floating-point error; rounding happens once,
per line, with round-half-even as tax authorities usually require.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Iterable


class InvoiceError(ValueError):
    """Raised when order lines cannot form a valid invoice."""


@dataclass(frozen=True)
class Line:
    """One order line: a product, how many, and the unit price in minor units."""

    sku: str
    description: str
    quantity: int
    unit_price: int
    tax_rate: Decimal = Decimal("0.20")

    def net(self) -> int:
        """Quantity times unit price, before tax."""
        return self.quantity * self.unit_price

    def tax(self) -> int:
        """Tax on this line, rounded half-even to a whole minor unit."""
        exact = Decimal(self.net()) * self.tax_rate
        return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


@dataclass
class Discount:
    """A percentage off the net total, optionally limited to some SKUs."""

    percent: Decimal
    skus: frozenset[str] | None = None

    def applies_to(self, line: Line) -> bool:
        return self.skus is None or line.sku in self.skus

    def amount(self, line: Line) -> int:
        if not self.applies_to(line):
            return 0
        exact = Decimal(line.net()) * self.percent / Decimal(100)
        return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


@dataclass
class Invoice:
    """An invoice: numbered lines, the discounts applied to them, and totals computed on demand."""

    number: str
    currency: str
    lines: list[Line] = field(default_factory=list)
    discounts: list[Discount] = field(default_factory=list)

    def add(self, line: Line) -> None:
        if line.quantity <= 0:
            raise InvoiceError(f"line {line.sku}: quantity must be positive, got {line.quantity}")
        if line.unit_price < 0:
            raise InvoiceError(f"line {line.sku}: unit price must not be negative")
        self.lines.append(line)

    def discount_total(self) -> int:
        return sum(d.amount(line) for line in self.lines for d in self.discounts)

    def net_total(self) -> int:
        return sum(line.net() for line in self.lines) - self.discount_total()

    def tax_total(self) -> int:
        return sum(line.tax() for line in self.lines)

    def gross_total(self) -> int:
        return self.net_total() + self.tax_total()


def format_money(minor: int, currency: str) -> str:
    """12345, "EUR" -> "123.45 EUR"; negative amounts keep their sign in front."""
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return f"{sign}{whole:,}.{cents:02d} {currency}"


def render(invoice: Invoice) -> str:
    """A plain-text invoice, one line per order line, totals right-aligned."""
    rows = [f"Invoice {invoice.number}", ""]
    for i, line in enumerate(invoice.lines, start=1):
        amount = format_money(line.net(), invoice.currency)
        rows.append(f"{i:>3}. {line.description:<40} {line.quantity:>4} x {amount:>16}")
    rows.append("")
    rows.append(f"{'Discounts':>52} {format_money(-invoice.discount_total(), invoice.currency):>16}")
    rows.append(f"{'Net':>52} {format_money(invoice.net_total(), invoice.currency):>16}")
    rows.append(f"{'Tax':>52} {format_money(invoice.tax_total(), invoice.currency):>16}")
    rows.append(f"{'Total':>52} {format_money(invoice.gross_total(), invoice.currency):>16}")
    return "\\n".join(rows)


def invoice_from_order(number: str, currency: str, lines: Iterable[Line], discounts: Iterable[Discount] = ()) -> Invoice:
    """Build an invoice, refusing an empty order."""
    invoice = Invoice(number=number, currency=currency, discounts=list(discounts))
    for line in lines:
        invoice.add(line)
    if not invoice.lines:
        raise InvoiceError("an invoice needs at least one line")
    return invoice
`;
