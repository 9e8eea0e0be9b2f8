"""The stateless half of a GraphQL request: decode, parse, validate, limits, cost.

Nothing here reads or writes the emulator's state, so the core runs it with the
turnstile released (``fairness.py``): a large document is parsed while other clients
are served. Parsing and validation are cached per query text, validation also per
structure (the same query for another PR number is not validated again), cost per
(query, operation, page-size variables): pollers send the same text over and over.

Limits, each answered the way github.com (graphql-ruby) answers it:

- a document of more than ``MAX_TOKENS`` tokens, or one nested too deep to parse:
  ``This query is too large to execute.`` (graphql-ruby's message for its token limit
  and for a parser stack overflow; GitHub publishes no token figure, so the bound is
  ours: 20,000 tokens, sixty times gh's largest query, which has about 320);
- fields nested more than ``MAX_DEPTH`` deep: ``Query has depth of N, which exceeds
  max depth of 25`` (graphql-ruby's ``max_depth`` message; 25 as reported from
  github.com, decaporg/decap-cms#7460, **unconfirmed** otherwise);
- page sizes and the 500,000-node limit (``limits.py``, GitHub's docs).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import msgspec
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    Node,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    parse,
    print_ast,
    validate,
)
from graphql.execution.values import get_variable_values

from ghbench.emulator.graphql.cost import CostReport, analyze_cost
from ghbench.emulator.graphql.errors import (
    ErrorDict,
    format_syntax_error,
    format_validation_error,
    message_only,
)
from ghbench.emulator.graphql.executor import CompiledExecutor, Plans
from ghbench.emulator.graphql.limits import check_limits
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.graphql_contract import GraphQLResult
from ghbench.trace.graphql_cost import PAGE_ARGS, fragments_of
from ghbench.trace.graphql_shape import Key, structure_key, template_key

__all__ = ["MAX_DEPTH", "MAX_TOKENS", "ParsedRequest", "Prepared", "parse_request", "result"]

MAX_TOKENS = 20_000
MAX_DEPTH = 25
TOO_LARGE = "This query is too large to execute."
_DOCS_URL = "https://docs.github.com/graphql"


@dataclass
class Prepared:
    """A parsed, validated query text; ``errors`` set when it cannot run."""

    document: DocumentNode | None
    errors: list[ErrorDict]
    operations: dict[str | None, OperationDefinitionNode] = field(default_factory=dict)
    page_variables: frozenset[str] = frozenset()
    costs: dict[tuple[Any, ...], CostReport] = field(default_factory=dict)
    executors: dict[str | None, CompiledExecutor | None] = field(default_factory=dict)
    # each operation's plans, shared by the documents of one template (their unchanged
    # subtrees are the same nodes)
    plans: dict[str | None, Plans] = field(default_factory=dict)


@dataclass
class ParsedRequest:
    """A request as far as it goes without state: ``answer`` when it already has one
    (bad JSON, errors, a limit), else the operation to run and what it costs."""

    answer: GraphQLResult | None
    prepared: Prepared | None = None
    operation: OperationDefinitionNode | None = None
    variables: dict[str, Any] = field(default_factory=dict)  # raw, as sent
    coerced: dict[str, Any] = field(default_factory=dict)
    report: CostReport | None = None

    @property
    def name(self) -> str | None:
        op = self.operation
        return op.name.value if op is not None and op.name else None

    @property
    def is_mutation(self) -> bool:
        return self.operation is not None and self.operation.operation is OperationType.MUTATION


def result(
    status: int,
    body: dict[str, Any],
    name: str | None = None,
    is_mutation: bool = False,
    cost: int = 0,
) -> GraphQLResult:
    return GraphQLResult(
        status=status, body=body, operation_name=name, is_mutation=is_mutation, cost=cost
    )


def _errors(
    errors: list[ErrorDict], name: str | None = None, is_mutation: bool = False
) -> ParsedRequest:
    return ParsedRequest(result(200, {"errors": errors}, name, is_mutation))


def parse_request(body: bytes, cost_rule: str) -> ParsedRequest:
    """Everything about ``body`` that needs no state (module docstring)."""
    try:
        payload = msgspec.json.decode(body)
    except msgspec.DecodeError:
        payload = None
    if not isinstance(payload, dict):
        bad_json = {"message": "Problems parsing JSON", "documentation_url": _DOCS_URL}
        return ParsedRequest(result(400, bad_json))
    query = payload.get("query")
    if not isinstance(query, str) or not query.strip():
        return _errors([message_only("A query attribute must be specified and must be a string.")])
    variables = payload.get("variables") or {}
    if isinstance(variables, str):
        try:
            variables = msgspec.json.decode(variables) or {}
        except msgspec.DecodeError:
            variables = None
    if not isinstance(variables, dict):
        return _errors([message_only("Variables are invalid JSON.")])

    prepared = prepare(query)
    if prepared.errors or prepared.document is None:
        return _errors(prepared.errors)
    operation, problem = _select_operation(prepared, payload.get("operationName") or None)
    if operation is None:
        return _errors([message_only(problem)])
    parsed = ParsedRequest(None, prepared, operation, variables)
    name, is_mutation = parsed.name, parsed.is_mutation
    coerced = get_variable_values(load_schema(), operation.variable_definitions or (), variables)
    if isinstance(coerced, list):
        problems = [_variable_error(e, variables, operation) for e in coerced]
        return _errors(problems, name, is_mutation)
    parsed.coerced = coerced.coerced
    parsed.report = _cost(prepared, operation, parsed.coerced, cost_rule)
    limit_errors = check_limits(parsed.report)
    if limit_errors:
        parsed.answer = result(200, {"data": None, "errors": limit_errors}, name, is_mutation)
    return parsed


@dataclass(frozen=True)
class _Valid:
    """What was found valid for a document's structure or template
    (``ghbench.trace.graphql_shape``): its page-size variables, and, when it merges
    fields (whose arguments must then agree), the equalities of its integers that held."""

    pages: frozenset[str]
    equalities: tuple[int, ...] | None  # None: no field merged, any integers will do

    def holds_for(self, key: Key) -> bool:
        return self.equalities is None or self.equalities == key.equalities


# documents of one structure need no validation again; documents of one template
# (the same text but its integers) are that tree with their integers read from their
# own text, not parsed again, and share its operations' plans
_VALID_STRUCTURES: dict[str, _Valid] = {}
_TEMPLATES: dict[str, tuple[_Valid, DocumentNode, dict[str | None, Plans]]] = {}
_KEYS_MAX = 512


def _keep(cache: dict[str, Any], key: str, value: Any) -> None:
    if len(cache) >= _KEYS_MAX:
        cache.clear()
    cache[key] = value


@functools.lru_cache(maxsize=512)
def prepare(query: str) -> Prepared:
    """Parse and validate ``query`` (cached per text; validated once per structure,
    parsed once per template)."""
    template = template_key(query)
    known = _TEMPLATES.get(template.text) if template is not None else None
    if template is not None and known is not None and known[0].holds_for(template):
        return _prepared(_with_integers(known[1], query), known[0].pages, known[2])
    try:
        document = parse(query, max_tokens=MAX_TOKENS)
    except GraphQLError as error:
        if "Parsing aborted" in error.message:  # too many tokens, or nested too deeply
            return Prepared(document=None, errors=[message_only(TOO_LARGE)])
        return Prepared(document=None, errors=[format_syntax_error(error)])
    except RecursionError:  # nested deeper than the parser's stack: graphql-ruby's answer
        return Prepared(document=None, errors=[message_only(TOO_LARGE)])
    key = structure_key(query)
    valid: _Valid | None = _VALID_STRUCTURES.get(key.text) if key is not None else None
    if valid is None or key is None or not valid.holds_for(key):
        problem = _validated(document)
        if isinstance(problem, Prepared):
            return problem
        valid = _Valid(problem, key.equalities if key and _merges(document) else None)
        if key is not None:
            _keep(_VALID_STRUCTURES, key.text, valid)
    plans: dict[str | None, Plans] = {}
    if template is not None:
        _keep(_TEMPLATES, template.text, (valid, document, plans))
    return _prepared(document, valid.pages, plans)


def _validated(document: DocumentNode) -> frozenset[str] | Prepared:
    """``document``'s page-size variables when it is valid, else its errors."""
    try:
        problems = [p for p in validate(load_schema(), document) if not _tolerated(p)]
    except RecursionError:  # validation rules recurse per level of nesting
        return Prepared(document=None, errors=[message_only(TOO_LARGE)])
    if problems:
        return Prepared(
            document=None, errors=[format_validation_error(p, document) for p in problems]
        )
    depth = _depth(document)
    if depth > MAX_DEPTH:
        message = f"Query has depth of {depth}, which exceeds max depth of {MAX_DEPTH}"
        return Prepared(document=None, errors=[message_only(message)])
    page_variables: set[str] = set()
    for node in _field_nodes(document):
        for argument in node.arguments or ():
            if argument.name.value in PAGE_ARGS and isinstance(argument.value, VariableNode):
                page_variables.add(argument.value.name.value)
    return frozenset(page_variables)


def _merges(document: DocumentNode) -> bool:
    """Whether field merging compares arguments anywhere in ``document``: a fragment
    spread, or two fields of one response name in a selection set (its inline
    fragments' fields counted in it)."""
    stack = [d.selection_set for d in document.definitions if hasattr(d, "selection_set")]
    while stack:
        names: set[str] = set()
        level = [stack.pop()]
        while level:
            for selection in level.pop().selections:
                if isinstance(selection, FragmentSpreadNode):
                    return True
                if isinstance(selection, InlineFragmentNode):
                    level.append(selection.selection_set)
                    continue
                assert isinstance(selection, FieldNode)
                name = (selection.alias or selection.name).value
                if name in names:
                    return True
                names.add(name)
                if selection.selection_set is not None:
                    stack.append(selection.selection_set)
    return False


def _with_integers(node: Node, text: str) -> Any:
    """``node``'s tree with each integer literal's value read from ``text`` at the
    literal's own offsets (a text of the same template); a node with no changed literal
    below it is shared."""
    if isinstance(node, IntValueNode):
        assert node.loc is not None
        literal = text[node.loc.start : node.loc.end]
        return node if literal == node.value else IntValueNode(value=literal, loc=node.loc)
    changed: dict[str, Any] = {}
    keys = _keys(type(node))
    for key in keys:
        value = getattr(node, key, None)
        if isinstance(value, Node):
            new = _with_integers(value, text)
            if new is not value:
                changed[key] = new
        elif isinstance(value, tuple | list) and value and isinstance(value[0], Node):
            items = [_with_integers(item, text) for item in value]
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changed[key] = type(value)(items)
    if not changed:
        return node
    return node.__class__(**{key: changed.get(key, getattr(node, key, None)) for key in keys})


_NODE_KEYS: dict[type[Node], tuple[str, ...]] = {}


def _keys(kind: type[Node]) -> tuple[str, ...]:
    """A node class's fields (graphql-core's ``Node.keys`` reads them anew each time)."""
    found = _NODE_KEYS.get(kind)
    if found is None:
        found = _NODE_KEYS[kind] = tuple(kind.keys)
    return found


def _prepared(
    document: DocumentNode, page_variables: frozenset[str], plans: dict[str | None, Plans]
) -> Prepared:
    operations: dict[str | None, OperationDefinitionNode] = {}
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            name = definition.name.value if definition.name else None
            operations[name] = definition
            plans.setdefault(name, Plans())
    return Prepared(
        document=document,
        errors=[],
        operations=operations,
        page_variables=page_variables,
        plans=plans,
    )


def _depth(document: DocumentNode) -> int:
    """How deep fields nest in the deepest operation, fragments included (graphql-ruby's
    measure). Iterative and linear: each fragment's depth is computed once, after the
    fragments it spreads (validation has refused cycles), so neither a long chain of
    fragments nor one spread many times can blow up."""
    fragments = fragments_of(document)
    spreads = {
        name: _spread_names(f.selection_set) & fragments.keys() for name, f in fragments.items()
    }
    memo: dict[str, int] = {}
    ready = [name for name, needs in spreads.items() if not needs]
    waiting = {name: set(needs) for name, needs in spreads.items() if needs}
    while ready:
        name = ready.pop()
        memo[name] = _set_depth(fragments[name].selection_set, memo)
        for other, needs in list(waiting.items()):
            needs.discard(name)
            if not needs:
                del waiting[other]
                ready.append(other)
    return max(
        (
            _set_depth(d.selection_set, memo)
            for d in document.definitions
            if isinstance(d, OperationDefinitionNode)
        ),
        default=0,
    )


def _set_depth(selection_set: SelectionSetNode, memo: dict[str, int]) -> int:
    """The deepest field under ``selection_set`` (its own fields are depth 1); a spread
    adds its fragment's depth from ``memo``."""
    deepest = 0
    pending = [(selection_set, 0)]  # (selection set, depth of the field it belongs to)
    while pending:
        current, base = pending.pop()
        for selection in current.selections:
            if isinstance(selection, FieldNode):
                deepest = max(deepest, base + 1)
                if selection.selection_set is not None:
                    pending.append((selection.selection_set, base + 1))
            elif isinstance(selection, InlineFragmentNode):
                pending.append((selection.selection_set, base))
            elif isinstance(selection, FragmentSpreadNode):
                deepest = max(deepest, base + memo.get(selection.name.value, 0))
    return deepest


def _spread_names(selection_set: SelectionSetNode) -> set[str]:
    names: set[str] = set()
    pending = [selection_set]
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FragmentSpreadNode):
                names.add(selection.name.value)
            child = getattr(selection, "selection_set", None)
            if child is not None:
                pending.append(child)
    return names


def _tolerated(problem: GraphQLError) -> bool:
    """Validation errors graphql-ruby (github.com) does not raise.

    gh's ``IssueByNumber`` selects ``state`` under both ``... on Issue`` and ``... on
    PullRequest``; the spec's SameResponseShape check rejects that (IssueState vs
    PullRequestState) but github.com accepts it, so we do too.
    """
    return "return conflicting types" in problem.message


def _field_nodes(document: DocumentNode) -> list[FieldNode]:
    found: list[FieldNode] = []
    pending: list[SelectionSetNode] = [
        d.selection_set for d in document.definitions if hasattr(d, "selection_set")
    ]
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FieldNode):
                found.append(selection)
            child = getattr(selection, "selection_set", None)
            if child is not None:
                pending.append(child)
    return found


def _select_operation(
    prepared: Prepared, requested: str | None
) -> tuple[OperationDefinitionNode | None, str]:
    if requested is not None:
        found = prepared.operations.get(requested)
        return (found, "") if found else (None, f'No operation named "{requested}"')
    if len(prepared.operations) == 1:
        return next(iter(prepared.operations.values())), ""
    return None, "An operation name is required"


def _cost(
    prepared: Prepared, operation: OperationDefinitionNode, variables: dict[str, Any], rule: str
) -> CostReport:
    key = (
        rule,
        operation.name.value if operation.name else None,
        *sorted((k, v) for k, v in variables.items() if k in prepared.page_variables),
    )
    report = prepared.costs.get(key)
    if report is None:
        assert prepared.document is not None
        report = analyze_cost(load_schema(), prepared.document, operation, variables, rule)
        prepared.costs[key] = report
    return report


def _variable_error(
    error: GraphQLError, variables: dict[str, Any], operation: OperationDefinitionNode
) -> ErrorDict:
    """graphql-ruby's shape: ``Variable $n of type Int! was provided invalid value``."""
    message = error.message
    name = message.split("'$", 1)[1].split("'", 1)[0] if "'$" in message else ""
    declared = {
        d.variable.name.value: print_ast(d.type) for d in operation.variable_definitions or ()
    }
    type_name = declared.get(name, "")
    explanation = message.split(": ", 1)[1] if ": " in message else message
    formatted: ErrorDict = {
        "extensions": {
            "value": variables.get(name),
            "problems": [{"path": [], "explanation": explanation}],
        },
        "locations": [{"line": loc.line, "column": loc.column} for loc in error.locations or ()],
    }
    if type_name:
        formatted["message"] = f"Variable ${name} of type {type_name} was provided invalid value"
    else:
        formatted["message"] = f"Variable ${name} was provided invalid value"
    return formatted
