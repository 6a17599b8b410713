"""The statements a compiled validator is made of, and how they are written out.

The compiler builds a small tree (bind, if/elif, for, plain line); writing it out folds an ``if``
whose whole body is another ``if`` into one condition and merges neighbouring arms with equal
bodies, so the generated code is what ruff's SIM102/SIM114 ask for without a post-pass on text.
Neighbouring ``if`` statements with the same body that leaves the block (``raise``) become one
``if A or B`` when that fits on a line: the same checks in the same order, in fewer lines. For the
same reason a value bound only to be tested at once is bound in the test (``type(x := d["k"])``)
when the test starts with it (so the binding always runs) and fits on a line.
Every multi-arm ``If`` the compiler builds switches on one discriminator value, so its arms are
mutually exclusive and folding an arm's inner condition into it keeps the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from toolgen.render.codegen import LineEmitter


@dataclass(frozen=True)
class Line:
    text: str
    leaves: bool = False  # control never reaches the next statement (a raise)


@dataclass(frozen=True)
class Bind:
    name: str
    expr: str


@dataclass(frozen=True)
class Loop:
    item: str
    index: str | None
    iterable: str
    body: tuple[Statement, ...]


@dataclass(frozen=True)
class If:
    arms: tuple[tuple[str, tuple[Statement, ...]], ...]


Statement: TypeAlias = Line | Bind | Loop | If


def guard(condition: str, body: list[Statement] | tuple[Statement, ...]) -> list[Statement]:
    """``if condition:`` around ``body``; nothing when the body is empty."""
    return [If(((condition, tuple(body)),))] if body else []


def conjunction(left: str, right: str) -> str:
    return f"{_parenthesized(left, ' or ')} and {_parenthesized(right, ' or ')}"


def _parenthesized(condition: str, *operators: str) -> str:
    # Conditions are built here from names and repr() values, so a string constant holding " or "
    # only costs a redundant pair of parentheses.
    return f"({condition})" if any(op in condition for op in operators) else condition


def depth(statements: list[Statement] | tuple[Statement, ...]) -> int:
    """How deep the blocks of ``statements`` nest (0: no block)."""
    deepest = 0
    pending = [(statement, 1) for statement in statements]
    while pending:
        statement, level = pending.pop()
        if isinstance(statement, Loop):
            deepest = max(deepest, level)
            pending += [(inner, level + 1) for inner in statement.body]
        elif isinstance(statement, If):
            deepest = max(deepest, level)
            pending += [(inner, level + 1) for _, body in statement.arms for inner in body]
    return deepest


def simplify(statements: tuple[Statement, ...] | list[Statement]) -> list[Statement]:
    out: list[Statement] = []
    for statement in statements:
        if isinstance(statement, Loop):
            out.append(
                Loop(
                    statement.item,
                    statement.index,
                    statement.iterable,
                    tuple(simplify(statement.body)),
                )
            )
        elif isinstance(statement, If):
            simplified = _simplify_if(statement)
            if simplified is not None:
                out.append(simplified)
        else:
            out.append(statement)
    return out


def _leaves_alike(first: Statement, second: Statement) -> bool:
    """Whether ``if A: body`` then ``if B: body`` is ``if A or B: body``: one arm each, and the
    same body that leaves the block (so the second never runs after the first took its arm)."""
    if not isinstance(first, If) or not isinstance(second, If):
        return False
    if len(first.arms) != 1 or len(second.arms) != 1:
        return False
    body = first.arms[0][1]
    last = body[-1] if body else None
    return body == second.arms[0][1] and isinstance(last, Line) and last.leaves


def _bound_in_tests(statements: list[Statement], room: int) -> list[Statement]:
    """``x = e`` then ``if type(x) ...`` as ``if type(x := e) ...`` (also ``x is ...``, ``x != ...``)."""
    out: list[Statement] = []
    for statement in statements:
        bind = out[-1] if out else None
        if isinstance(bind, Bind) and isinstance(statement, If):
            bound = _bound_in_test(bind, statement, room)
            if bound is not None:
                out[-1] = bound
                continue
        out.append(statement)
    return out


def _bound_in_test(bind: Bind, statement: If, room: int) -> If | None:
    condition, body = statement.arms[0]
    name, expr = bind.name, bind.expr
    for start, bound in (
        (f"type({name})", f"type({name} := {expr})"),
        (f"{name} ", f"({name} := {expr}) "),
    ):
        if condition.startswith(start):
            condition = bound + condition[len(start) :]
            if len(condition) > room:
                return None
            return If(((condition, body), *statement.arms[1:]))
    return None


def _merged(statements: list[Statement], room: int) -> list[Statement]:
    """Neighbouring ``if A: raise`` and ``if B: raise`` as ``if A or B: raise`` while the
    condition stays within ``room`` characters (one line: black keeps it as written)."""
    out: list[Statement] = []
    for statement in statements:
        if out and _leaves_alike(out[-1], statement):
            ((before, body),) = out[-1].arms  # type: ignore[union-attr]
            ((condition, _),) = statement.arms  # type: ignore[union-attr]
            either = f"{_parenthesized(before, ' and ')} or {_parenthesized(condition, ' and ')}"
            if len(either) <= room:
                out[-1] = If(((either, body),))
                continue
        out.append(statement)
    return out


def _simplify_if(statement: If) -> If | None:
    arms: list[tuple[list[str], tuple[Statement, ...]]] = []  # conditions joined by ``or``
    for condition, body in statement.arms:
        inner = tuple(simplify(body))
        while len(inner) == 1 and isinstance(inner[0], If) and len(inner[0].arms) == 1:
            nested_condition, inner = inner[0].arms[0]
            condition = conjunction(condition, nested_condition)
        if not inner:
            continue
        if arms and arms[-1][1] == inner:
            arms[-1][0].append(condition)
        else:
            arms.append(([condition], inner))
    return If(tuple((_either(conditions), inner) for conditions, inner in arms)) if arms else None


def _either(conditions: list[str]) -> str:
    """``A or B or C`` (one flat chain: ``or`` groups either way)."""
    if len(conditions) == 1:
        return conditions[0]
    return " or ".join(_parenthesized(c, " and ", " or ") for c in conditions)


#: The line length black formats the generated code to.
LINE_LENGTH = 88


def write(emitter: LineEmitter, statements: list[Statement] | tuple[Statement, ...]) -> None:
    _write_block(emitter, simplify(statements))


def _write_block(
    emitter: LineEmitter, statements: list[Statement] | tuple[Statement, ...], in_if: bool = False
) -> None:
    room = LINE_LENGTH - emitter.indent - len("if :")
    bound = _bound_in_tests(list(statements), room)
    if in_if and len(bound) == 1 and isinstance(bound[0], If):
        bound = list(statements)  # an ``if`` whose whole body is an ``if`` (ruff's SIM102)
    for statement in _merged(bound, room):
        _write_one(emitter, statement)


def _write_one(emitter: LineEmitter, statement: Statement) -> None:
    if isinstance(statement, Line):
        emitter.line(statement.text)
    elif isinstance(statement, Bind):
        emitter.line(f"{statement.name} = {statement.expr}")
    elif isinstance(statement, Loop):
        target = f"{statement.index}, {statement.item}" if statement.index else statement.item
        iterable = f"enumerate({statement.iterable})" if statement.index else statement.iterable
        with emitter.block(f"for {target} in {iterable}"):
            _write_block(emitter, statement.body)
    else:
        for position, (condition, body) in enumerate(statement.arms):
            with emitter.block(f"{'if' if position == 0 else 'elif'} {condition}"):
                _write_block(emitter, body, in_if=True)
