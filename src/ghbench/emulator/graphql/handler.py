"""``POST /graphql``: parse, validate, check limits, cost, charge, execute.

Each stage answers the way GitHub does when it fails:

1. body is not a JSON object → 400 ``Problems parsing JSON``;
2. no ``query`` string, syntax or validation errors, unknown ``operationName``, bad
   variables, a document too large or too deep → 200 ``{"errors": [...]}`` in
   graphql-ruby's shape, nothing charged;
3. a query limit (page size, node count) → 200 ``{"data": null, "errors": [...]}``
   with GitHub's ``type``, nothing charged;
4. the bucket has fewer points than the cost → 200 with ``RATE_LIMITED``, nothing
   charged (``ctx.charge`` raises :class:`RateLimited`);
5. otherwise the points are charged, then the operation runs; ``rateLimit`` reports
   the bucket as it is after the charge. Execution calls ``ctx.checkpoint`` as it goes
   (the deadline, and turns for other clients: ``fairness.py``); each top-level field
   of a mutation runs in ``ctx.mutation_scope`` (one transaction each).

Stages 1-3 need no state (``request.py``: :func:`parse_request`); the core runs them
off the turnstile and then calls :func:`answer`. :func:`handle_graphql` does both.

``rateLimit(dryRun: true)`` charges nothing and runs only the ``rateLimit`` fields:
GitHub documents that a dry run computes the cost "without running the query", but
not whether it is free; we chose free (see docs/emulator.md, GraphQL).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    execute_sync,
)

from ghbench.emulator.graphql.errors import format_execution_error, rate_limited
from ghbench.emulator.graphql.executor import CompiledExecutor, can_compile
from ghbench.emulator.graphql.request import ParsedRequest, Prepared, parse_request, result
from ghbench.emulator.graphql.resolvers import ResolveContext, typename_of
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.graphql_contract import GraphQLRequestContext, GraphQLResult, RateLimited
from ghbench.trace.graphql_cost import fragments_of

__all__ = ["answer", "handle_graphql", "parse_request", "refused"]


def handle_graphql(body: bytes, ctx: GraphQLRequestContext) -> GraphQLResult:
    """Answer one GraphQL request; see the module docstring for the stages."""
    return answer(parse_request(body, ctx.cost_rule), ctx)


def answer(parsed: ParsedRequest, ctx: GraphQLRequestContext) -> GraphQLResult:
    """Charge and run a request :func:`parse_request` has checked."""
    if parsed.answer is not None:
        return parsed.answer
    prepared, operation, report = parsed.prepared, parsed.operation, parsed.report
    assert prepared is not None and operation is not None and report is not None
    name, is_mutation, coerced = parsed.name, parsed.is_mutation, parsed.coerced
    document = prepared.document
    if not is_mutation and _is_dry_run(operation, coerced):
        bucket = ctx.peek()
        document = _only_rate_limit(operation)
        charged = 0
    else:
        try:
            bucket = ctx.charge(report.cost, name)
        except RateLimited:
            return refused(ctx.viewer.id, name, is_mutation)
        charged = report.cost

    context = ResolveContext(
        store=ctx.state,
        viewer=ctx.viewer,
        report=report,
        bucket=bucket,
        web_url=getattr(ctx, "web_url", None) or ResolveContext.web_url,
    )
    compiled = _executor(prepared, operation) if document is prepared.document else None
    root_scope = ctx.mutation_scope if is_mutation else None
    clock_reads, changes = ctx.state.clock_reads, ctx.state.record_changes
    if compiled is not None:
        data, errors = compiled.execute(
            context, coerced, checkpoint=ctx.checkpoint, root_scope=root_scope
        )
    else:
        assert document is not None
        with ctx.mutation_scope() if is_mutation else nullcontext():
            outcome = execute_sync(
                load_schema(),
                document,
                variable_values=parsed.variables,
                operation_name=name,
                context_value=context,
                middleware=[_checkpointing(ctx.checkpoint)],
            )
        data, errors = outcome.data, list(outcome.errors or ())
    response: dict[str, Any] = {"data": data}
    if errors:
        response["errors"] = [format_execution_error(e) for e in errors]
    answered = result(200, response, name, is_mutation, charged)
    answered.reusable = (
        charged > 0
        and not is_mutation
        and not _rate_limit_fields(operation)
        and ctx.state.clock_reads == clock_reads
        # an answer that changed a record (a mergeability computed, GitHub's UNKNOWN
        # this once) is not the answer the next request gets
        and ctx.state.record_changes == changes
    )
    return answered


def refused(viewer_id: int, name: str | None, is_mutation: bool) -> GraphQLResult:
    """GitHub's answer to a request the bucket cannot pay for: 200, ``RATE_LIMITED``."""
    answered = result(200, {"data": None, "errors": [rate_limited(viewer_id)]}, name, is_mutation)
    answered.refused = True
    return answered


def _checkpointing(checkpoint: Callable[[], None]) -> Callable[..., Any]:
    """graphql-core middleware: a checkpoint before every field it resolves."""

    def middleware(next_: Callable[..., Any], root: Any, info: Any, **args: Any) -> Any:
        try:
            checkpoint()
        except BaseException as stop:  # the budget's aborts (fairness.py) carry a path
            if hasattr(stop, "path") and not stop.path:
                stop.path = info.path.as_list()
            raise
        return next_(root, info, **args)

    return middleware


def _executor(prepared: Prepared, operation: OperationDefinitionNode) -> CompiledExecutor | None:
    """The compiled executor for ``operation``, or None when graphql-core must run it."""
    key = operation.name.value if operation.name else None
    if key not in prepared.executors:
        assert prepared.document is not None
        fragments = fragments_of(prepared.document)
        prepared.executors[key] = (
            CompiledExecutor(
                load_schema(), operation, fragments, typename_of, prepared.plans.get(key)
            )
            if can_compile(operation, fragments)
            else None
        )
    return prepared.executors[key]


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
