"""Post-processing of datamodel-code-generator's output: the import block.

The generator writes absolute imports of the placeholder package (for shared classes and the base
class), may repeat an import line, and orders imports its own way. This rewrites the leading import
block: placeholder imports become relative to the module being written (OUT is relocatable), and
the block is sorted into isort sections (future, standard library, third party, local) with names
ordered by type, as ``ruff check --select I`` expects. The rest of the module is kept as written.
"""

from __future__ import annotations

import ast
import re
import sys

from toolgen.compile.models.prepare import PLACEHOLDER_PACKAGE


def relative_module(target: str, package: str) -> str:
    """``_toolgen_out_.models._shared`` seen from package ``models.tools`` -> ``.._shared``."""
    target_parts = target.split(".")[1:]  # drop the placeholder
    package_parts = package.split(".") if package else []
    common = 0
    while (
        common < min(len(target_parts) - 1, len(package_parts))
        and target_parts[common] == package_parts[common]
    ):
        common += 1
    dots = "." * (len(package_parts) - common + 1)
    return dots + ".".join(target_parts[common:])


def name_order(name: str) -> tuple[int, str]:
    """isort's order-by-type: CONSTANTS, then Classes, then everything else."""
    if name.isupper() and len(name) > 1:
        return 0, name
    return (1 if name[:1].isupper() else 2), name


def _section(module: str, level: int) -> int:
    if level:
        return 4
    top = module.split(".")[0]
    if top == "__future__":
        return 0
    if top in sys.stdlib_module_names:
        return 1
    return 2


def rewrite_imports(source: str, package: str, header: str) -> str:
    """``header`` + the sorted, relative import block + the body of ``source``.

    Imported names the body never mentions are dropped (the generator can leave one behind).
    """
    head, tree = _import_block(source)
    imports: dict[tuple[int, str], set[str]] = {}
    plain: set[str] = set()
    body_start = len(head.splitlines())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            module, level = node.module or "", node.level
            if module.split(".")[0] == PLACEHOLDER_PACKAGE:
                relative = relative_module(module, package)
                level = len(relative) - len(relative.lstrip("."))
                module = relative.lstrip(".")
            names = imports.setdefault((level, module), set())
            for alias in node.names:
                names.add(alias.name if alias.asname is None else f"{alias.name} as {alias.asname}")
        elif isinstance(node, ast.Import):
            plain.update(
                a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names
            )
        else:
            body_start = node.lineno - 1
            decorators = getattr(node, "decorator_list", None)
            if decorators:
                body_start = min(d.lineno for d in decorators) - 1
            break
    body = "\n".join(source.splitlines()[body_start:]).strip("\n")
    used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body)) | {"annotations"}
    sections: dict[int, list[tuple[str, str]]] = {}
    for (level, module), all_names in imports.items():
        names = {n for n in all_names if n.split(" as ")[-1] in used}
        if not names:
            continue
        ordered = ", ".join(sorted(names, key=name_order))
        dotted = f"{'.' * level}{module}"
        sections.setdefault(_section(module, level), []).append(
            (dotted, f"from {dotted} import {ordered}")
        )
    for name in plain:
        sections.setdefault(_section(name, 0), []).append((name, f"import {name}"))
    blocks = [
        "\n".join(line for _, line in sorted(sections[section], key=_module_key))
        for section in sorted(sections)
    ]
    return f"{header}\n\n" + "\n\n".join(blocks) + "\n\n\n" + body + "\n"


#: a line that cannot belong to the leading import block: one at column 0 that is no import,
#: comment or closing parenthesis
_AFTER_IMPORTS = re.compile(r"^(?!from |import |#|\)|[ \t\r\n]|$)", re.MULTILINE)


def _import_block(source: str) -> tuple[str, ast.Module]:
    """The module up to the end of its leading import block, and its tree (the rest of the
    module, megabytes for a large enum, is kept as written: parsing it is most of the time and
    memory); the whole module when that part does not parse on its own."""
    found = _AFTER_IMPORTS.search(source)
    if found is not None:
        head = source[: found.start()]
        try:
            return head, ast.parse(head)
        except SyntaxError:
            pass
    return source, ast.parse(source)


def _module_key(item: tuple[str, str]) -> tuple[bool, int, str]:
    """isort order inside a section: ``import x`` before ``from x import`` (force-sort off),
    by module; relative imports furthest first (``..`` before ``.``)."""
    module, line = item
    dots = len(module) - len(module.lstrip("."))
    return line.startswith("from "), -dots, module.lower()
