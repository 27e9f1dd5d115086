# cython: language_level=3, boundscheck=False, wraparound=False
"""A compiled driver for Lark's LALR(1) tables and contextual lexer.

The grammar stays in ``grammar/geodsl.lark`` and Lark builds the tables, the
per-state scanners and the tree-building callbacks from it; this module only
runs them, in C loops instead of Lark's Python ones. Each reduction calls
the function the caller gives for the rule's alias (a rule without one passes
its single child through), with all children, punctuation included. On any input Lark would reject it returns :data:`REJECT` without
deciding anything, and the caller re-parses with Lark to get Lark's exact
error, so error messages have one source.
"""

from lark.parsers.lalr_analysis import Shift

REJECT = object()


class NewList:
    """Reduction spec: a new list holding child ``index``."""

    def __init__(self, index):
        self.index = index


class Append:
    """Reduction spec: child ``target`` (a list) with child ``index`` appended."""

    def __init__(self, target, index):
        self.target = target
        self.index = index


class Pick:
    """Reduction spec: child ``index`` itself."""

    def __init__(self, index):
        self.index = index

# Reduction kinds run in C, without a Python call.
cdef enum:
    R_CALL = 0
    R_NEW_LIST = 1
    R_APPEND = 2
    R_PICK = 3


cdef class Tok:
    """A token: its terminal name, its text and its 1-based column.

    Lighter than Lark's Token (a str subclass whose comparisons run Python
    code): the semantic layer compares ``tok.text``, a plain str.
    """

    cdef readonly str type
    cdef readonly str text
    cdef readonly Py_ssize_t column

    def __init__(self, str type, str text, Py_ssize_t column):
        self.type = type
        self.text = text
        self.column = column

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Tok({self.type!r}, {self.text!r}, {self.column})"


cdef inline Tok _tok(str kind, str text, Py_ssize_t column):
    cdef Tok t = Tok.__new__(Tok)
    t.type = kind
    t.text = text
    t.column = column
    return t


cdef str _plain(object name):
    return "".join([name])


cdef class CompiledLALR:
    cdef dict _actions        # state -> {symbol: (is_shift, target)}
    cdef list _rule_size
    cdef list _rule_origin
    cdef list _rule_callback
    cdef list _rule_kind
    cdef list _rule_a
    cdef list _rule_b
    cdef list _match_by_state  # state -> bound `match` of the state's terminal alternation
    cdef list _row_by_state    # state -> {symbol: (is_shift, target)}
    cdef frozenset _ignore
    cdef object _start_state
    cdef object _end_state

    def __init__(self, lark, dict reductions):
        frontend = lark.parser
        table = frontend.parser.parser.parse_table
        start = frontend.parser_conf.start[0]
        self._start_state = table.start_states[start]
        self._end_state = table.end_states[start]
        rules = {}
        self._rule_size = []
        self._rule_origin = []
        self._rule_callback = []
        self._rule_kind = []
        self._rule_a = []
        self._rule_b = []
        self._actions = {}
        for state, row in table.states.items():
            compiled = {}
            for symbol, (action, arg) in row.items():
                # Lark's symbol names may be its Token (a str subclass whose
                # == runs Python code): key by plain str.
                symbol = _plain(symbol)
                if action is Shift:
                    compiled[symbol] = (True, arg)
                else:
                    index = rules.get(id(arg))
                    if index is None:
                        index = len(self._rule_size)
                        rules[id(arg)] = index
                        self._rule_size.append(len(arg.expansion))
                        self._rule_origin.append(_plain(arg.origin.name))
                        name = arg.alias or arg.origin.name
                        spec = reductions.get(name)
                        if spec is None and len(arg.expansion) == 1:
                            spec = Pick(0)
                        if spec is None:
                            raise ValueError(f"no reduction for rule {name}")
                        self._add_rule(spec)
                    compiled[symbol] = (False, index)
            self._actions[state] = compiled
        lexer = frontend.lexer
        states = max(self._actions) + 1
        if sorted(self._actions) != list(range(states)):
            raise ValueError("parser states are not 0..n-1")
        self._match_by_state = [None] * states
        self._row_by_state = [self._actions[s] for s in range(states)]
        ignore = set()
        for state, basic in lexer.lexers.items():
            scanner = basic.scanner  # builds the scanner and basic.callback
            if len(scanner._mres) != 1:
                raise ValueError("a state's terminals do not fit one regular expression")
            if basic.callback:
                # Keyword re-typing callbacks would change token types; the
                # grammar has none, and this driver does not run them.
                raise ValueError("the grammar's lexer has callbacks this driver does not run")
            self._match_by_state[state] = scanner._mres[0].match
            ignore |= {_plain(t) for t in basic.ignore_types}
        self._ignore = frozenset(ignore)

    def _add_rule(self, spec):
        if isinstance(spec, NewList):
            self._rule_kind.append(R_NEW_LIST)
            self._rule_a.append(spec.index)
            self._rule_b.append(0)
            self._rule_callback.append(None)
        elif isinstance(spec, Append):
            self._rule_kind.append(R_APPEND)
            self._rule_a.append(spec.target)
            self._rule_b.append(spec.index)
            self._rule_callback.append(None)
        elif isinstance(spec, Pick):
            self._rule_kind.append(R_PICK)
            self._rule_a.append(spec.index)
            self._rule_b.append(0)
            self._rule_callback.append(None)
        else:
            self._rule_kind.append(R_CALL)
            self._rule_a.append(0)
            self._rule_b.append(0)
            self._rule_callback.append(spec)

    def parse(self, str text):
        """Parse one line; the reductions' value, or REJECT where Lark would raise."""
        cdef list states = [self._start_state]
        cdef list values = []
        cdef list match_by_state = self._match_by_state
        cdef list row_by_state = self._row_by_state
        cdef Py_ssize_t pos = 0, end = len(text), size, rule, top, m_end
        cdef object m, callback, value, entry
        cdef str kind
        cdef Tok token
        cdef tuple goto
        cdef list children
        cdef bint done = False
        cdef int how
        cdef Py_UCS4 ch
        while True:
            # Blanks are an ignored terminal: skipping them here saves a
            # regular-expression call per gap between tokens.
            while pos < end:
                ch = text[pos]
                if ch == u' ' or ch == u'\t':
                    pos += 1
                else:
                    break
            if pos < end:
                m = match_by_state[<Py_ssize_t> states[len(states) - 1]](text, pos)
                if m is None:
                    return REJECT
                kind = m.lastgroup
                m_end = m.end()
                if kind in self._ignore:
                    pos = m_end
                    continue
                token = _tok(kind, text[pos:m_end], pos + 1)
                pos = m_end
            else:
                kind = "$END"
                token = _tok(kind, "", pos + 1)
                done = True
            # Feed the token: reduce as often as the table says, then shift.
            while True:
                entry = (<dict> row_by_state[<Py_ssize_t> states[len(states) - 1]]).get(kind)
                if entry is None:
                    return REJECT
                if (<tuple> entry)[0]:
                    if done:
                        return REJECT
                    states.append((<tuple> entry)[1])
                    values.append(token)
                    break
                rule = <Py_ssize_t> (<tuple> entry)[1]
                size = <Py_ssize_t> self._rule_size[rule]
                top = len(values)
                how = <int> self._rule_kind[rule]
                if how == R_PICK:
                    value = values[top - size + <Py_ssize_t> self._rule_a[rule]]
                elif how == R_NEW_LIST:
                    value = [values[top - size + <Py_ssize_t> self._rule_a[rule]]]
                elif how == R_APPEND:
                    value = values[top - size + <Py_ssize_t> self._rule_a[rule]]
                    (<list> value).append(values[top - size + <Py_ssize_t> self._rule_b[rule]])
                else:
                    children = values[top - size:]
                    value = self._rule_callback[rule](children)
                if size:
                    del states[len(states) - size:]
                    del values[top - size:]
                goto = <tuple> (<dict> row_by_state[<Py_ssize_t> states[len(states) - 1]])[self._rule_origin[rule]]
                states.append(goto[1])
                values.append(value)
                if done and states[len(states) - 1] == self._end_state:
                    return values[len(values) - 1]
