"""The JSON Schema of the protocol's state and of version 3's ``welcome`` and ``update``
frames, made from the Python types the server writes them from
(:mod:`rummy500.session.seat_state`, :mod:`rummy500.server.frames`), so that what the
browser is typed against (the TypeScript declarations beside the pages' modules, made from
this schema by ``npm run types``) cannot drift from what the server sends.

``python -m rummy500.web.protocol_schema [PATH]`` writes it (to :data:`SCHEMA_PATH` by
default); ``--check`` says whether the file there is what the types give today.

The types a frame adds to the state are here: a welcome's state is a
:class:`~rummy500.session.seat_state.SeatState` with the table's ``chat``; an update's
``set`` may name any key of the state, and its ``append`` the growing ones
(:data:`~rummy500.server.frames.GROWING`). Each field's docstring in the source becomes its
``description`` (and so a comment in the declarations).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from ..net.protocol import V3
from ..server.frames import GROWING
from ..server.messages import LINE_FIELDS
from ..session.seat_state import HistoryEntry, SeatState

SCHEMA_PATH = Path(__file__).resolve().parent / "static" / "js" / "protocol.schema.json"
"""Where the schema is kept (beside the browser's modules, which are typed from it)."""

CHAT_OPTIONAL = ("react",)
"""The keys of :data:`~rummy500.server.messages.LINE_FIELDS` a chat line may lack."""


class UndoEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An update's event when moves were taken back (:func:`rummy500.server.undo.undo_event`)."""

    seat: int
    undo: int
    """How many moves were taken back."""
    text: str


class NoEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An update's event when the reader has no history yet to tell: ``{}``."""

    text: UnsetType | None = UNSET
    """Never there (so that a page tells this event from the others by its ``text``)."""


ChatLine = msgspec.defstruct(
    "ChatLine",
    [(key, kind) for key, kind in LINE_FIELDS.items() if key not in CHAT_OPTIONAL]
    + [(key, kind | None, None) for key, kind in LINE_FIELDS.items() if key in CHAT_OPTIONAL],
    frozen=True, omit_defaults=True, forbid_unknown_fields=True, module=__name__)
ChatLine.__doc__ = "A line said at the table (an entry of a welcome's ``chat``)."


class WelcomeState(SeatState, frozen=True, kw_only=True, omit_defaults=True,
                   forbid_unknown_fields=True):
    """A welcome's state: the seat's whole state, with the table's last chat lines."""

    chat: tuple[ChatLine, ...]  # type: ignore[valid-type]


StateChange = msgspec.defstruct(
    "StateChange",
    [(field.name, field.type | UnsetType, UNSET) for field in msgspec.structs.fields(SeatState)],
    frozen=True, forbid_unknown_fields=True, module=__name__)
StateChange.__doc__ = """An update's ``set``: the keys of the state whose value changed, each with
its whole new value (null when it became null); a key not named is unchanged."""

Appended = msgspec.defstruct(
    "Appended",
    [(field.name, field.type | UnsetType, UNSET) for field in msgspec.structs.fields(SeatState)
     if field.name in GROWING],
    frozen=True, forbid_unknown_fields=True, module=__name__)
Appended.__doc__ = "An update's ``append``: the items to add at the end of the lists that grew."

REF = "#/definitions/{name}"
"""How the schema refers to its parts: under ``definitions``, where the declarations' maker
finds even those no frame names (``SeatState``)."""

_EVENTS = (HistoryEntry, UndoEvent, NoEvent)
Event = Annotated[Any, Meta(extra_json_schema={
    "anyOf": [{"$ref": REF.format(name=kind.__name__)} for kind in _EVENTS],
    "description": "The change as the reader is told it: the last entry of its history, "
                   "or moves taken back."})]


class Welcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The first frame to a client, and the answer to a ``resync``: the whole state."""

    type: Literal["welcome"]
    seat: int | None
    """The reader's seat; null for a spectator."""
    seq: int
    v: Literal[3]
    state: WelcomeState


class Update(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A change of the table (version 3): what changed since the frame of ``seq`` - 1."""

    type: Literal["update"]
    seq: int
    event: Event
    set: StateChange  # type: ignore[valid-type]
    append: Appended  # type: ignore[valid-type]


SCHEMA_TYPES: tuple[Any, ...] = (Welcome, Update, SeatState, *_EVENTS, ChatLine)
"""The types the schema names at its top."""


def _field_docs(kind: type) -> dict[str, str]:
    """The docstrings under ``kind``'s fields in its source (none for a made type)."""
    try:
        source = inspect.getsource(kind)
    except (OSError, TypeError):
        return {}
    body = ast.parse(inspect.cleandoc("\n" + source)).body[0]
    docs: dict[str, str] = {}
    if isinstance(body, ast.ClassDef):
        for before, after in zip(body.body, body.body[1:], strict=False):
            if (isinstance(before, ast.AnnAssign) and isinstance(before.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[before.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _structs(kinds: tuple[Any, ...]) -> dict[str, type]:
    """Every struct type in ``kinds`` and in their fields, by name."""
    found: dict[str, type] = {}
    todo: list[Any] = list(msgspec.inspect.multi_type_info(kinds))
    while todo:
        info = todo.pop()
        if isinstance(info, msgspec.inspect.StructType):
            if info.cls.__name__ in found:
                continue
            found[info.cls.__name__] = info.cls
            todo.extend(field.type for field in info.fields)
        elif isinstance(info, msgspec.inspect.UnionType):
            todo.extend(info.types)
        elif isinstance(info, msgspec.inspect.Metadata):
            todo.append(info.type)
        elif isinstance(info, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
            todo.append(info.item_type)
    return found


def _words(doc: str) -> str:
    """A docstring as a description: in one line, its code marked as Markdown marks it."""
    return re.sub(r":[a-z]+:`~?", "`", " ".join(doc.split()).replace("``", "`"))


def _written(kind: type, component: dict[str, Any]) -> None:
    """Marks as required every field the server always writes: all but those left out
    when unset or, in a struct that omits its defaults, when at their default."""
    omits = kind.__struct_config__.omit_defaults  # type: ignore[attr-defined]
    component["required"] = [
        field.name for field in msgspec.structs.fields(kind)
        if field.required or not (omits or field.default is UNSET)]
    if not component["required"]:
        del component["required"]


def _described(components: dict[str, Any]) -> dict[str, Any]:
    """``components`` with the fields' docstrings as their descriptions, in plain words, and
    with what the server always writes required."""
    for name, kind in _structs(SCHEMA_TYPES).items():
        component = components[name]
        _written(kind, component)
        if "description" in component:
            component["description"] = _words(component["description"])
        docs: dict[str, str] = {}
        for base in reversed(kind.__mro__):
            docs.update(_field_docs(base))
        for field, doc in docs.items():
            prop = component.get("properties", {}).get(field)
            if prop is not None:
                prop.setdefault("description", _words(doc))
    return components


def schema() -> dict[str, Any]:
    """The protocol's schema: a frame is a ``Welcome`` or an ``Update``, and ``definitions``
    holds every part of them, each named as its Python type."""
    refs, components = msgspec.json.schema_components(SCHEMA_TYPES, ref_template=REF)
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "ProtocolFrame",
        "description": f"A welcome or update frame of version {V3} of the protocol "
                       "(docs/protocol.md); made by python -m rummy500.web.protocol_schema "
                       "from the server's types: do not edit.",
        "anyOf": list(refs[:2]),
        "definitions": _described(components),
    }


def text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    paths = [arg for arg in args if arg != "--check"]
    path = Path(paths[0]) if paths else SCHEMA_PATH
    if check:
        if not path.exists() or path.read_text(encoding="utf-8") != text():
            print(f"{path} is not the schema of today's types: run npm run types",
                  file=sys.stderr)
            return 1
        return 0
    path.write_text(text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["CHAT_OPTIONAL", "REF", "SCHEMA_PATH", "SCHEMA_TYPES", "Appended", "ChatLine", "NoEvent",
           "StateChange", "UndoEvent", "Update", "Welcome", "WelcomeState", "main", "schema",
           "text"]
