"""``POST /graphql``: parse, validate, check limits, cost, charge, execute.

Each stage answers the way GitHub does when it fails:

1. body is not a JSON object → 400 ``Problems parsing JSON``;
2. no ``query`` string, syntax or validation errors, unknown ``operationName``, bad
   variables → 200 ``{"errors": [...]}`` in graphql-ruby's shape, nothing charged;
3. a query limit (page size, node count) → 200 ``{"data": null, "errors": [...]}``
   with GitHub's ``type``, nothing charged;
4. the bucket has fewer points than the cost → 200 with ``RATE_LIMITED``, nothing
   charged (``ctx.charge`` raises :class:`RateLimited`);
5. otherwise the points are charged, then the operation runs; ``rateLimit`` reports
   the bucket as it is after the charge.

``rateLimit(dryRun: true)`` charges nothing and runs only the ``rateLimit`` fields:
GitHub documents that a dry run computes the cost "without running the query", but
not whether it is free; we chose free (see docs/emulator.md, GraphQL).

Parsing and validation are cached per query text, and cost per (query, operation,
page-size variables): pollers send the same text over and over.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import msgspec
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLError,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    execute_sync,
    parse,
    print_ast,
    validate,
)
from graphql.execution.values import get_variable_values

from ghbench.emulator.graphql.cost import CostReport, analyze_cost
from ghbench.emulator.graphql.errors import (
    ErrorDict,
    format_execution_error,
    format_syntax_error,
    format_validation_error,
    message_only,
    rate_limited,
)
from ghbench.emulator.graphql.executor import CompiledExecutor, can_compile
from ghbench.emulator.graphql.limits import check_limits
from ghbench.emulator.graphql.resolvers import ResolveContext, typename_of
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.graphql_contract import GraphQLRequestContext, GraphQLResult, RateLimited

__all__ = ["handle_graphql"]

_DOCS_URL = "https://docs.github.com/graphql"
_PAGE_ARGUMENTS = frozenset({"first", "last"})


@dataclass
class _Prepared:
    """A parsed, validated query text; ``errors`` set when it cannot run."""

    document: DocumentNode | None
    errors: list[ErrorDict]
    operations: dict[str | None, OperationDefinitionNode] = field(default_factory=dict)
    page_variables: frozenset[str] = frozenset()
    costs: dict[tuple[Any, ...], CostReport] = field(default_factory=dict)
    executors: dict[str | None, CompiledExecutor | None] = field(default_factory=dict)


def handle_graphql(body: bytes, ctx: GraphQLRequestContext) -> GraphQLResult:
    """Answer one GraphQL request; see the module docstring for the stages."""
    try:
        payload = msgspec.json.decode(body)
    except msgspec.DecodeError:
        payload = None
    if not isinstance(payload, dict):
        return _result(400, {"message": "Problems parsing JSON", "documentation_url": _DOCS_URL})
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
    requested_name = payload.get("operationName") or None

    prepared = _prepare(query)
    if prepared.errors or prepared.document is None:
        return _errors(prepared.errors)
    operation, problem = _select_operation(prepared, requested_name)
    if operation is None:
        return _errors([message_only(problem)])
    name = operation.name.value if operation.name else None
    is_mutation = operation.operation is OperationType.MUTATION
    schema = load_schema()
    coerced = get_variable_values(schema, operation.variable_definitions or (), variables)
    if isinstance(coerced, list):
        problems = [_variable_error(e, variables, operation) for e in coerced]
        return _errors(problems, name, is_mutation)

    report = _cost(prepared, operation, coerced.coerced, ctx.cost_rule)
    limit_errors = check_limits(report)
    if limit_errors:
        return _result(200, {"data": None, "errors": limit_errors}, name, is_mutation)

    document = prepared.document
    if not is_mutation and _is_dry_run(operation, coerced.coerced):
        bucket = ctx.peek()
        document = _only_rate_limit(operation)
        charged = 0
    else:
        try:
            bucket = ctx.charge(report.cost, name)
        except RateLimited:
            body_ = {"data": None, "errors": [rate_limited(ctx.viewer.id)]}
            return _result(200, body_, name, is_mutation)
        charged = report.cost

    context = ResolveContext(
        store=ctx.state,
        viewer=ctx.viewer,
        report=report,
        bucket=bucket,
        web_url=getattr(ctx, "web_url", None) or ResolveContext.web_url,
    )
    compiled = _executor(prepared, operation) if document is prepared.document else None
    if compiled is not None:
        data, errors = compiled.execute(context, coerced.coerced)
    else:
        outcome = execute_sync(
            schema,
            document,
            variable_values=variables,
            operation_name=name,
            context_value=context,
        )
        data, errors = outcome.data, list(outcome.errors or ())
    response: dict[str, Any] = {"data": data}
    if errors:
        response["errors"] = [format_execution_error(e) for e in errors]
    return _result(200, response, name, is_mutation, charged)


def _executor(prepared: _Prepared, operation: OperationDefinitionNode) -> CompiledExecutor | None:
    """The compiled executor for ``operation``, or None when graphql-core must run it."""
    key = operation.name.value if operation.name else None
    if key not in prepared.executors:
        assert prepared.document is not None
        fragments = {
            d.name.value: d
            for d in prepared.document.definitions
            if isinstance(d, FragmentDefinitionNode)
        }
        prepared.executors[key] = (
            CompiledExecutor(load_schema(), operation, fragments, typename_of)
            if can_compile(operation, fragments)
            else None
        )
    return prepared.executors[key]


def _result(
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
) -> GraphQLResult:
    return _result(200, {"errors": errors}, name, is_mutation)


@functools.lru_cache(maxsize=512)
def _prepare(query: str) -> _Prepared:
    try:
        document = parse(query)
    except GraphQLError as error:
        return _Prepared(document=None, errors=[format_syntax_error(error)])
    problems = [p for p in validate(load_schema(), document) if not _tolerated(p)]
    if problems:
        return _Prepared(
            document=None, errors=[format_validation_error(p, document) for p in problems]
        )
    operations: dict[str | None, OperationDefinitionNode] = {}
    page_variables: set[str] = set()
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            operations[definition.name.value if definition.name else None] = definition
    for node in _field_nodes(document):
        for argument in node.arguments or ():
            if argument.name.value in _PAGE_ARGUMENTS and isinstance(argument.value, VariableNode):
                page_variables.add(argument.value.name.value)
    return _Prepared(
        document=document,
        errors=[],
        operations=operations,
        page_variables=frozenset(page_variables),
    )


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
    prepared: _Prepared, requested: str | None
) -> tuple[OperationDefinitionNode | None, str]:
    if requested is not None:
        found = prepared.operations.get(requested)
        return (found, "") if found else (None, f'No operation named "{requested}"')
    if len(prepared.operations) == 1:
        return next(iter(prepared.operations.values())), ""
    return None, "An operation name is required"


def _cost(
    prepared: _Prepared, operation: OperationDefinitionNode, variables: dict[str, Any], rule: str
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


def _rate_limit_fields(operation: OperationDefinitionNode) -> list[FieldNode]:
    return [
        s
        for s in operation.selection_set.selections
        if isinstance(s, FieldNode) and s.name.value == "rateLimit"
    ]


def _is_dry_run(operation: OperationDefinitionNode, variables: dict[str, Any]) -> bool:
    for node in _rate_limit_fields(operation):
        for argument in node.arguments or ():
            if argument.name.value != "dryRun":
                continue
            value = argument.value
            if isinstance(value, VariableNode):
                if variables.get(value.name.value) is True:
                    return True
            elif getattr(value, "value", None) is True:
                return True
    return False


def _only_rate_limit(operation: OperationDefinitionNode) -> DocumentNode:
    """The operation cut down to its top-level ``rateLimit`` fields (a dry run)."""
    trimmed = OperationDefinitionNode(
        operation=operation.operation,
        name=operation.name,
        variable_definitions=operation.variable_definitions,
        directives=operation.directives,
        selection_set=SelectionSetNode(selections=tuple(_rate_limit_fields(operation))),
    )
    return DocumentNode(definitions=(trimmed,))


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
