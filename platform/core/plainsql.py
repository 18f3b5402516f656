"""The hot path's statements as plain SQL, with the ORM's own conversions.

Building a statement in the ORM (a QuerySet, its compiler, ``as_sql``) cost more CPU than
running it (docs/architecture/matches.md, "How a move flows"). These
helpers build each statement's text once per model and field set and convert values exactly as
the ORM does (``get_db_prep_save`` on the way in; the backend's and the field's converters on
the way out), so they work on PostgreSQL and SQLite alike. Only for models without save
signals: nothing here sends them.
"""
from __future__ import annotations

from functools import lru_cache

from django.db import connection


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


def cursor():
    """On PostgreSQL a cursor that binds parameters on the server: the driver then needs no
    quoting of its own (a match's state is a JSON document), and psycopg prepares a statement
    once it ran five times on a connection, which spares PostgreSQL parsing and planning it
    again. Django's wrapper is kept (its errors, its query log). Elsewhere the usual cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return connection._prepare_cursor(ServerBindingCursor(connection.connection))


@lru_cache(maxsize=64)
def _columns(model, vendor: str):
    """(columns, attribute names, converters by position) of ``model``'s concrete fields."""
    fields = model._meta.concrete_fields
    converters = []
    for i, f in enumerate(fields):
        col = f.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if found:
            converters.append((i, col, found))
    return [f.column for f in fields], [f.attname for f in fields], converters


def columns(model, alias: str) -> str:
    """The select list of ``model``'s concrete fields, prefixed by the table alias; ``build``
    turns the row's slice of ``width(model)`` values back into an instance."""
    return ", ".join(f"{alias}.{_qn(c)}" for c in _columns(model, connection.vendor)[0])


def width(model) -> int:
    return len(model._meta.concrete_fields)


def build(model, values):
    """An instance of ``model`` from its columns' values as the database returned them (None
    for a LEFT JOIN that found no row: all of them NULL)."""
    _cols, names, converters = _columns(model, connection.vendor)
    if all(v is None for v in values):
        return None
    values = list(values)
    for i, col, found in converters:
        for convert in found:
            values[i] = convert(values[i], col, connection)
    return model.from_db(connection.alias, names, values)


@lru_cache(maxsize=64)
def _select(model, where: str, lock: bool, vendor: str) -> str:
    table = _qn(model._meta.db_table)
    locking = ""
    if lock and connection.features.has_select_for_no_key_update:
        # Excludes every other writer of the row, but not the foreign-key checks of rows
        # inserted meanwhile that point to it (a notification of the match): FOR UPDATE made
        # those wait for the move's commit.
        locking = " FOR NO KEY UPDATE"
    elif lock and connection.features.has_select_for_update:
        locking = " FOR UPDATE"
    return f"SELECT {columns(model, table)} FROM {table} WHERE {where}{locking}"


def fetch_one(model, where: str, params: list, *, lock: bool = False):
    """The first row of ``model`` matching ``where`` (plain SQL with %s, on the table's own
    columns) as an instance, locked for a writer if ``lock`` (FOR NO KEY UPDATE where the
    database has it, else FOR UPDATE); None if there is none."""
    with cursor() as cur:
        cur.execute(_select(model, where, lock, connection.vendor), params)
        row = cur.fetchone()
    return None if row is None else build(model, row)


@lru_cache(maxsize=16)
def _select_with(model, child_model, link: str, related: str | None, vendor: str) -> str:
    table, child = _qn(model._meta.db_table), _qn(child_model._meta.db_table)
    fk = _qn(child_model._meta.get_field(link).column)
    locking = ""
    if connection.features.has_select_for_no_key_update and connection.features.has_select_for_update_of:
        locking = " FOR NO KEY UPDATE OF p"
    elif connection.features.has_select_for_update_of:
        locking = " FOR UPDATE OF p"
    select, joins = f"{columns(model, 'p')}, {columns(child_model, 'c')}", ""
    if related:
        more, joins = _join_related(child_model, related, "c")
        select += more
    return (f"SELECT {select} FROM {table} p LEFT JOIN {child} c "
            f"ON c.{fk} = p.{_qn(model._meta.pk.column)}{joins} WHERE p.{_qn(model._meta.pk.column)} = %s{locking}")


def fetch_locked_with(model, pk, child_model, link: str, related: str | None = None):
    """The row of ``model`` with primary key ``pk``, locked for a writer (as ``fetch_one`` with
    ``lock``), and its ``child_model`` rows (whose field ``link`` points to it), in one
    statement: (instance, [children]); (None, []) if there is no such row. ``related``: a
    foreign key of the children whose rows come along (as ``select_related`` would; the lock
    stays on ``model``'s row)."""
    with cursor() as cur:
        cur.execute(_select_with(model, child_model, link, related, connection.vendor), [pk])
        rows = cur.fetchall()
    if not rows:
        return None, []
    n, m = width(model), width(child_model)
    children = []
    for row in rows:
        child = build(child_model, row[n:n + m])
        if child is None:
            continue
        if related:
            _cache_related(child, related, row[n + m:])
        children.append(child)
    return build(model, rows[0][:n]), children


def _join_related(model, related: str, alias: str) -> tuple[str, str]:
    """(", <columns>", " LEFT JOIN ..."): the row that ``model``'s foreign key ``related`` points to,
    as alias ``r``, for the rows of ``model`` under ``alias``."""
    field = model._meta.get_field(related)
    target = field.remote_field.model
    return (f", {columns(target, 'r')}",
            f" LEFT JOIN {_qn(target._meta.db_table)} r ON r.{_qn(field.target_field.column)} = "
            f"{alias}.{_qn(field.column)}")


def _cache_related(obj, related: str, values) -> None:
    field = type(obj)._meta.get_field(related)
    field.set_cached_value(obj, build(field.remote_field.model, values))


@lru_cache(maxsize=16)
def _select_related_by(model, related: str, column: str, vendor: str) -> str:
    more, join = _join_related(model, related, "t")
    return (f"SELECT {columns(model, 't')}{more} FROM {_qn(model._meta.db_table)} t{join} "
            f"WHERE t.{_qn(model._meta.get_field(column).column)} = %s")


def fetch_one_related(model, related: str, column: str, value):
    """The row of ``model`` whose field ``column`` equals ``value``, with the row its foreign
    key ``related`` points to (as ``select_related(related)``), in one plain statement; None
    if there is none."""
    with cursor() as cur:
        cur.execute(_select_related_by(model, related, column, connection.vendor), [value])
        row = cur.fetchone()
    if row is None:
        return None
    obj = build(model, row[:width(model)])
    _cache_related(obj, related, row[width(model):])
    return obj


@lru_cache(maxsize=64)
def _insert(model, suffix: str, vendor: str):
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))}){suffix} RETURNING {_qn(model._meta.pk.column)}")
    return sql, fields


def can_insert_returning() -> bool:
    return connection.vendor in ("postgresql", "sqlite") and connection.features.can_return_columns_from_insert


def insert(obj, *, unless_conflict: bool = False) -> bool:
    """INSERT ``obj`` (auto fields filled as ``save`` would) and set its pk. With
    ``unless_conflict``: nothing happens if a unique key exists already (False is returned).
    Where the database cannot return the new id, ``save(force_insert=True)`` (no
    ``unless_conflict`` then: the caller handles IntegrityError)."""
    if not can_insert_returning():
        obj.save(force_insert=True)
        return True
    sql, fields = _insert(type(obj), " ON CONFLICT DO NOTHING" if unless_conflict else "", connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with cursor() as cur:
        cur.execute(sql, values)
        row = cur.fetchone()
    if row is None:
        return False
    obj.pk = row[0]
    obj._state.adding, obj._state.db = False, connection.alias
    return True


@lru_cache(maxsize=16)
def _insert_many_pairs(model, child_model, link: str, keys: tuple[str, ...], with_children: bool, vendor: str):
    opts, child_opts = model._meta, child_model._meta
    fields = [f for f in opts.concrete_fields if not f.primary_key]
    child_fields = [f for f in child_opts.concrete_fields if not f.primary_key and f.attname != link]
    key_fields = [opts.get_field(k) for k in keys]
    pk, child_pk = _qn(opts.pk.column), _qn(child_opts.pk.column)
    key_cols = ", ".join(f"n.{_qn(f.column)}" for f in key_fields)

    def unnest(columns, prefix):  # one array per column: one statement text for any number of rows
        arrays = ", ".join(f"%s::{f.cast_db_type(connection)}[]" for f in columns)
        return f"unnest({arrays}) AS {prefix}({', '.join(f'{prefix}{i}' for i in range(len(columns)))})"

    sql = (f"WITH n AS (INSERT INTO {_qn(opts.db_table)} ({', '.join(_qn(f.column) for f in fields)}) "
           f"SELECT * FROM {unnest(fields, 'p')} ON CONFLICT DO NOTHING "
           f"RETURNING {pk}, {', '.join(_qn(f.column) for f in key_fields)})")
    if not with_children:
        return sql + f" SELECT {key_cols}, n.{pk}, NULL FROM n", fields, child_fields, key_fields
    # The children name their parent by its unique key (the parents' new ids are not known
    # before the statement).
    on = " AND ".join(f"c.c{i} = n.{_qn(f.column)}" for i, f in enumerate(key_fields))
    link_col = _qn(child_opts.get_field(link).column)
    child_values = ", ".join(f"c.c{len(key_fields) + i}" for i in range(len(child_fields)))
    sql += (f", d AS (INSERT INTO {_qn(child_opts.db_table)} "
            f"({link_col}, {', '.join(_qn(f.column) for f in child_fields)}) "
            f"SELECT n.{pk}, {child_values} FROM n JOIN {unnest([*key_fields, *child_fields], 'c')} ON {on} "
            f"RETURNING {child_pk}, {link_col}) "
            f"SELECT {key_cols}, n.{pk}, d.{child_pk} FROM n LEFT JOIN d ON d.{link_col} = n.{pk}")
    return sql, fields, child_fields, key_fields


def insert_many_unless_conflict_with(objs: list, children: list, link: str, keys: tuple[str, ...]) -> list[int]:
    """PostgreSQL only: ``insert(obj, unless_conflict=True)`` for each of ``objs`` (one model,
    unique on ``keys``, attnames) and, for each it inserted, its child (``children[i]``, one
    model, or None; ``link``: the child's attname pointing to its parent), all in one statement.
    Sets the pks of what it inserted; returns the indexes of the objs inserted."""
    if not objs:
        return []
    model = type(objs[0])
    position = {}  # a key twice: only the first is tried (the second would conflict with it)
    for i, obj in enumerate(objs):
        position.setdefault(tuple(getattr(obj, k) for k in keys), i)
    tried = sorted(position.values())
    kids = [(i, children[i]) for i in tried if children[i] is not None]
    sql, fields, child_fields, key_fields = _insert_many_pairs(
        model, type(kids[0][1]) if kids else model, link, keys, bool(kids), connection.vendor)
    values = [[f.get_db_prep_save(f.pre_save(objs[i], True), connection) for i in tried] for f in fields]
    if kids:
        values += [[getattr(objs[i], f.attname) for i, _child in kids] for f in key_fields]
        values += [[f.get_db_prep_save(f.pre_save(child, True), connection) for _i, child in kids]
                   for f in child_fields]
    with cursor() as cur:
        cur.execute(sql, values)
        rows = cur.fetchall()
    inserted = []
    for *key, pk, child_pk in rows:
        i = position[tuple(key)]
        inserted.append(i)
        saved = [objs[i]]
        objs[i].pk = pk
        if child_pk is not None:
            children[i].pk = child_pk
            setattr(children[i], link, pk)
            saved.append(children[i])
        for obj in saved:
            obj._state.adding, obj._state.db = False, connection.alias
    return sorted(inserted)


@lru_cache(maxsize=128)
def _update(model, fields: tuple[str, ...], vendor: str):
    opts = model._meta
    columns = [opts.get_field(f) for f in fields]
    sql = (f"UPDATE {_qn(opts.db_table)} SET {', '.join(f'{_qn(f.column)} = %s' for f in columns)} "
           f"WHERE {_qn(opts.pk.column)} = %s")
    return sql, columns


def _update_statement(obj, fields):
    sql, columns = _update(type(obj), tuple(sorted(fields)), connection.vendor)
    return sql, [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in columns] + [obj.pk]


def update_fields(obj, fields) -> None:
    """``obj.save(update_fields=fields)`` as one plain UPDATE (``auto_now`` fields among
    ``fields`` are set, as save() would)."""
    with cursor() as cur:
        cur.execute(*_update_statement(obj, fields))


@lru_cache(maxsize=64)
def _update_each(model, fields: tuple[str, ...], vendor: str):
    opts = model._meta
    columns = [opts.get_field(f) for f in fields]
    pk = opts.pk
    # One array per column: the statement's text is the same for any number of rows, so the
    # driver parses it once and prepares it (a VALUES list of 15 rows was re-parsed every time).
    arrays = ", ".join(f"%s::{f.cast_db_type(connection)}[]" for f in [pk, *columns])
    names = ", ".join(["pk_", *(f"v{i}" for i in range(len(columns)))])
    sets = ", ".join(f"{_qn(f.column)} = v.v{i}" for i, f in enumerate(columns))
    sql = (f"UPDATE {_qn(opts.db_table)} SET {sets} FROM unnest({arrays}) AS v({names}) "
           f"WHERE {_qn(opts.db_table)}.{_qn(pk.column)} = v.pk_")
    return sql, columns


def update_each(objs: list, fields) -> None:
    """``obj.save(update_fields=fields)`` for every one of ``objs`` (one model), each with its
    own values: one statement on PostgreSQL (UPDATE … FROM unnest(arrays)), one per object elsewhere."""
    if not objs:
        return
    if len(objs) == 1 or connection.vendor != "postgresql":
        for obj in objs:
            update_fields(obj, fields)
        return
    with cursor() as cur:
        cur.execute(*_update_each_statement(objs, fields))


def _update_each_statement(objs: list, fields):
    sql, columns = _update_each(type(objs[0]), tuple(sorted(fields)), connection.vendor)
    values = [[obj.pk for obj in objs]]
    values += [[f.get_db_prep_save(f.pre_save(obj, False), connection) for obj in objs] for f in columns]
    return sql, values


class Writes:
    """The writes of one step sent as one statement on PostgreSQL: the UPDATEs as data-modifying
    WITH clauses ahead of the INSERT (they see the same snapshot, so they must not depend on
    each other). Each statement was a round trip and its share of the driver's and the
    server's work per statement. Elsewhere each runs as it comes. ``run()`` sends
    them; the inserted object's pk is set then."""

    def __init__(self):
        self.together = connection.vendor == "postgresql" and can_insert_returning()
        self.parts: list[tuple[str, list]] = []
        self.inserted = None

    def update_fields(self, obj, fields) -> None:
        if not self.together:
            return update_fields(obj, fields)
        self.parts.append(_update_statement(obj, fields))

    def update_each(self, objs: list, fields) -> None:
        if not self.together or not objs:
            return update_each(objs, fields)
        self.parts.append(_update_statement(objs[0], fields) if len(objs) == 1 else _update_each_statement(objs, fields))

    def insert(self, obj) -> None:
        if not self.together or self.inserted is not None:
            insert(obj)
            return
        self.inserted = obj

    def run(self) -> None:
        obj, self.inserted = self.inserted, None
        parts, self.parts = self.parts, []
        if obj is None:
            for sql, params in parts:
                with cursor() as cur:
                    cur.execute(sql, params)
            return
        sql, fields = _insert(type(obj), "", connection.vendor)
        params = []
        clauses = []
        for i, (part, values) in enumerate(parts):
            clauses.append(f"w{i} AS ({part})")
            params.extend(values)
        params.extend(f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields)
        with cursor() as cur:
            cur.execute((f"WITH {', '.join(clauses)} " if clauses else "") + sql, params)
            obj.pk = cur.fetchone()[0]
        obj._state.adding, obj._state.db = False, connection.alias
