/*
** parser.y — the grammar of μ-SIMD (language.md), building a Program
** through ir.h's builder functions.
**
** Line-oriented: a file is a sequence of lines, each empty, a directive,
** or any number of `label:` prefixes and at most one statement. Errors are
** recovered at the line level (`error NL`), so every line's syntax error
** is reported in one run. Semantic errors found while building (an
** assignment to a special variable, a bad GSA arity, a bad directive
** value) are reported at once and the statement is dropped.
**
** Pure parser, no global state: the scanner and the IrParse context are
** parameters. Locations are the project's Loc (diag.h).
*/
%require "3.8"
%define api.pure full
%define api.location.type {Loc}
%define parse.error custom
/* Canonical LR(1) tables with no default reductions: a state's actions
** are then exactly the tokens that may follow, so the "expected" lists of
** syntax errors are right without lookahead correction (LAC, which cost a
** tenth of the time of loading a large file). The grammar is small: the
** tables stay small too. Reducing only on a valid lookahead also means a
** statement's action (which appends it) never runs when its line turns
** out to be broken. */
%define lr.type canonical-lr
%define lr.default-reduction accepting
%locations
%expect 0

%param {yyscan_t scanner}
%parse-param {IrParse *c}

%code requires {
#include "ir.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* The state shared by the scanner (its extra data) and the parser. */
typedef struct IrParse {
	Program *p;
	Diags *d;
	const char *base;       /* the scanner's copy of p->src (Loc.off counts from it) */
	int32_t line;           /* scanner position: the current line */
	bool at_bol;            /* the last token was an end of line (or none yet) */
	int prev_tok;           /* the last token */
	Loc tok_loc;            /* the location of the token being scanned */
	Loc head, after_head;   /* the last identifier that began a statement, and the token after it */
	int after_head_tok;
	int32_t err_line;       /* line of the last syntax or lexical error */
	/* nested γ nodes of the statement being parsed (triples: predicate,
	** o1, o2); an OPND_GATE operand indexes them until put_gsa moves the
	** tree into the instruction's args */
	Opnd *gate;
	int32_t ngate, capgate;
	int32_t *gate_depth;    /* per node: its nesting depth */
	Ins rhs;                /* the right-hand side being parsed (rule rhs) */
	/* the operands of the line being parsed (semantic values <opnd> index
	** them); emptied at the end of every line */
	Opnd *ops;
	int32_t nops, capops;
} IrParse;

/* An operand list: a GSA argument (a tuple or a single operand). */
typedef struct ParseList {
	Opnd *v;
	int32_t n, cap;
	bool tuple;
	Loc loc;
} ParseList;

/* A GSA call: its operator and arguments. */
typedef struct ParseCall {
	uint8_t op;
	ParseList **v;
	int32_t n, cap;
	Loc loc;
} ParseCall;

/* The destinations of a statement ([v1, ..., vk] = ...). */
typedef struct ParseDsts {
	int32_t *var;
	Loc *loc;
	int32_t n, cap;
	bool bad; /* some destination was rejected */
} ParseDsts;
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
/* Scan and parse p->src into p (ir_parse's first half: ir.c). */
void ir_parse_src(Program *p, Diags *d);
}

%code {
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* The operand a semantic value <opnd> stands for. */
#define O(i) (c->ops[(i)])

/* A rule's location spans its first to its last symbol; its line is
** the first's. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                          \
	do {                                                                     \
		if ((N) == 1) { /* most rules: a copy */                             \
			(Cur) = YYRHSLOC(Rhs, 1);                                        \
		} else if (N) {                                                      \
			(Cur) = YYRHSLOC(Rhs, 1);                                        \
			(Cur).len = YYRHSLOC(Rhs, N).off + YYRHSLOC(Rhs, N).len -        \
			            YYRHSLOC(Rhs, 1).off;                                \
		} else {                                                             \
			(Cur) = YYRHSLOC(Rhs, 0);                                        \
			(Cur).off += (Cur).len;                                          \
			(Cur).len = 0;                                                   \
		}                                                                    \
	} while (0)

static void yyerror(const Loc *loc, yyscan_t scanner, IrParse *c, const char *msg);

static void ins_free(Ins *ins);
static void list_free(ParseList *l);
static void call_free(ParseCall *g);
static void dsts_free(ParseDsts *ds);
static ParseList *list_new(Opnd o, bool tuple);
static ParseDsts *dsts_new(void);
static void dsts_push(ParseDsts *ds, int32_t var, Loc loc);

static Ins ins1(Op op, Opnd a);
static Ins ins2(Op op, Opnd a, Opnd b);
static Ins *rhs2(IrParse *c, Op op, const Opnd *a, const Opnd *b);
static int32_t opnd_push(IrParse *c, Opnd o);
static Ins *bin(IrParse *c, const Opnd *a, BinOp op, const Opnd *b);
static void put(IrParse *c, Ins *ins, Loc loc);
static void put_dst(IrParse *c, Ins *ins, int32_t dst, Loc dloc, Loc loc);
static void put_gsa(IrParse *c, ParseDsts *ds, ParseCall *g, Loc loc, bool matrix);
static Opnd lit_opnd(IrParse *c, Num n, Loc loc);
static Opnd gate_node(IrParse *c, Opnd p, Opnd o1, Opnd o2, Loc loc);
static void gates_clear(IrParse *c);
static void gate_flatten(IrParse *c, Ins *ins);
static const char *text(IrParse *c, Loc loc);
static void directive_count(IrParse *c, const char *name, Num n, Loc loc, int32_t *out);
static int64_t data_addr(IrParse *c, Num n, Loc loc);
static int binop_named(const char *s, size_t len);
static bool unknown_word(IrParse *c, Loc loc, const char *what, bool functional);
}

%union {
	Num num;
	int32_t i;
	int64_t i64;
	int32_t opnd; /* an index in IrParse.ops: an Opnd is too big for
	              ** bison's stack copies */
	Ins *ins; /* &IrParse.rhs: a statement has one right-hand side, and a
	          ** small semantic value keeps bison's stack copies cheap */
	ParseList *list;
	ParseCall *call;
	ParseDsts *dsts;
}

/* Token order matters for messages: the expected-token list follows it. */
%token NL "end of line"
%token IDENT "identifier"
%token <num> INT "integer"
%token <num> NEGINT "negative integer"
%token <i> SPECIAL "special variable"
%token '=' ',' ':' '(' ')' '[' ']'
%token '+' '-' '*' '/' '%' '<' '>' '&' '|' '^' '!' '~'
%token LE "'<='" GE "'>='" EQ "'=='" NE "'!='" SHL "'<<'" SHR "'>>'"
%token LAND "'&&'" LOR "'||'"
%token ARROW_A "'<-a'" DOWN "'↓'" UP "'↑'" LDOWN "'⇓'" LUP "'⇑'"
%token KW_BZ "'bz'" KW_BNZ "'bnz'" KW_BRANCH "'branch'" KW_JUMP "'jump'"
%token KW_SYNC "'sync'" KW_STOP "'stop'" KW_EXIT "'exit'" KW_BARRIER "'barrier'"
%token KW_CALL "'call'" KW_RET "'ret'"
%token KW_MEM "'mem'" KW_LOCAL "'local'" KW_CONST "'const'" KW_LOAD "'load'"
%token KW_STORE "'store'" KW_ATOMINC "'atominc'" KW_ATOMADD "'atomadd'"
%token KW_ATOMCAS "'atomcas'" KW_ATOMEXCH "'atomexch'"
%token KW_PHI "'phi'" KW_GAMMA "'gamma'" KW_MU "'mu'" KW_ETA "'eta'"
%token KW_MIN "'min'" KW_MAX "'max'"
%token DIR_KERNEL "'.kernel'" DIR_THREADS "'.threads'" DIR_WARPSIZE "'.warpsize'"
%token DIR_PARAM "'.param'" DIR_DATA "'.data'" DIR_FILL "'.fill'" DIR_MEMORY "'.memory'"

%type <num> intlit
%type <i> dst target unop gsa_op
%type <i64> data
%type <opnd> operand gate gate_arg
%type <ins> rhs
%type <list> garg olist
%type <call> gargs gsa_call
%type <dsts> dsts

%destructor { num_free(&$$); } <num>
%destructor { ins_free($$); } <ins>
%destructor { list_free($$); } <list>
%destructor { call_free($$); } <call>
%destructor { dsts_free($$); } <dsts>

%%

/* Not `file: %empty | file line`: state 0 would have to reduce the empty
** file before it could shift `error`, so an error in the first token (a
** bad character, an unknown directive) aborted the whole parse. */
file
	: %empty
	| lines
	;

/* The common line, a statement alone, is an alternative of lines itself:
** one reduction fewer per line. */
lines
	: line { c->nops = 0; }
	| lines line { c->nops = 0; }
	| stmt NL { c->nops = 0; }
	| lines stmt NL { c->nops = 0; }
	;

line
	: NL
	| labels NL
	| labels stmt NL
	| directive NL
	/* yyerrok before the end of line is shifted: reducing this rule waits
	** for the next line's first token, which may be an error to report */
	| error { yyerrok; } NL
	;

labels
	: label
	| labels label
	;

/* A label names the next instruction, possibly on a later line (§1). */
label
	: lname ':' {
		int32_t l = ir_label(c->p, text(c, @1), (size_t)@1.len, @1);
		ir_define_label(c->p, l, @1, c->d);
	}
	;

/* Labels: identifiers, reserved words, natural numbers (§1). */
lname
	: IDENT
	| SPECIAL { (void)$1; }
	| INT { num_free(&$1); }
	| keyword
	;

keyword
	: KW_BZ | KW_BNZ | KW_BRANCH | KW_JUMP | KW_SYNC | KW_STOP | KW_EXIT | KW_BARRIER | KW_CALL | KW_RET
	| KW_MEM | KW_LOCAL | KW_CONST | KW_LOAD | KW_STORE | KW_ATOMINC | KW_ATOMADD
	| KW_ATOMCAS | KW_ATOMEXCH | KW_PHI | KW_GAMMA | KW_MU | KW_ETA | KW_MIN | KW_MAX
	;

target
	: lname { $$ = ir_label(c->p, text(c, @1), (size_t)@1.len, @1); }
	;

/* ---- statements (§4) --------------------------------------------------- */

stmt
	: dst '=' rhs { put_dst(c, $3, $1, @1, @$); }
	| dst '=' gsa_call {
		ParseDsts *ds = dsts_new();
		dsts_push(ds, $1, @1);
		put_gsa(c, ds, $3, @$, false);
	}
	| '[' dsts ']' '=' gsa_call { put_gsa(c, $2, $5, @$, true); }
	| dst ARROW_A operand '+' INT {
		/* v ←a o + 1 (Table 3.1): the paper's atomic increment */
		Ins ins = ins1(OP_ATOMINC, O($3));
		if (!num_eq($5, NUM_I(1))) {
			diag_error(c->d, @5, "the atomic increment adds 1 (use atomadd for other amounts)");
			$1 = -1;
		}
		num_free(&$5);
		put_dst(c, &ins, $1, @1, @$);
	}
	| IDENT '(' dst ',' operand ',' operand ')' {
		/* functional form OP(v, o1, o2) (seed 003) */
		Ins ins = ins2(OP_BINARY, O($5), O($7));
		int op = binop_named(text(c, @1), (size_t)@1.len);
		if (op == BIN__COUNT) {
			unknown_word(c, @1, "operation", true);
			$3 = -1;
		}
		ins.sub = (uint8_t)op;
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_MIN '(' dst ',' operand ',' operand ')' {
		Ins ins = ins2(OP_BINARY, O($5), O($7));
		ins.sub = BIN_MIN;
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_MAX '(' dst ',' operand ',' operand ')' {
		Ins ins = ins2(OP_BINARY, O($5), O($7));
		ins.sub = BIN_MAX;
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_CONST '(' dst ',' intlit ')' {
		Ins ins = ins1(OP_COPY, lit_opnd(c, $5, @5));
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_LOAD '(' dst ',' operand ')' {
		Ins ins = ins1(OP_LOAD, O($5));
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_STORE '(' operand ',' operand ')' {
		/* store(value, address): value first, as in the paper */
		Ins ins = ins2(OP_STORE, O($5), O($3));
		put(c, &ins, @$);
	}
	| KW_ATOMINC '(' dst ',' operand ')' {
		Ins ins = ins1(OP_ATOMINC, O($5));
		put_dst(c, &ins, $3, @3, @$);
	}
	| KW_MEM '[' operand ']' '=' operand {
		Ins ins = ins2(OP_STORE, O($3), O($6));
		put(c, &ins, @$);
	}
	| UP operand '=' operand {
		Ins ins = ins2(OP_STORE, O($2), O($4));
		put(c, &ins, @$);
	}
	| KW_LOCAL '[' operand ']' '=' operand {
		Ins ins = ins2(OP_LSTORE, O($3), O($6));
		put(c, &ins, @$);
	}
	| LUP operand '=' operand {
		Ins ins = ins2(OP_LSTORE, O($2), O($4));
		put(c, &ins, @$);
	}
	| KW_BZ operand ',' target {
		Ins ins = ins1(OP_BZ, O($2));
		ins.target_label = $4;
		ir_set_target_loc(&ins, @4);
		put(c, &ins, @$);
	}
	| KW_BNZ operand ',' target {
		Ins ins = ins1(OP_BNZ, O($2));
		ins.target_label = $4;
		ir_set_target_loc(&ins, @4);
		put(c, &ins, @$);
	}
	| KW_BRANCH '(' operand ',' target ')' {
		Ins ins = ins1(OP_BNZ, O($3));
		ins.target_label = $5;
		ir_set_target_loc(&ins, @5);
		put(c, &ins, @$);
	}
	| KW_JUMP target {
		Ins ins = ir_ins_init(OP_JUMP, @$);
		ins.target_label = $2;
		ir_set_target_loc(&ins, @2);
		put(c, &ins, @$);
	}
	| KW_JUMP '(' target ')' {
		Ins ins = ir_ins_init(OP_JUMP, @$);
		ins.target_label = $3;
		ir_set_target_loc(&ins, @3);
		put(c, &ins, @$);
	}
	| KW_CALL target {
		Ins ins = ir_ins_init(OP_CALL, @$);
		ins.target_label = $2;
		ir_set_target_loc(&ins, @2);
		put(c, &ins, @$);
	}
	| KW_RET { Ins ins = ir_ins_init(OP_RET, @$); put(c, &ins, @$); }
	| KW_SYNC { Ins ins = ir_ins_init(OP_SYNC, @$); put(c, &ins, @$); }
	| KW_STOP { Ins ins = ir_ins_init(OP_STOP, @$); put(c, &ins, @$); }
	| KW_EXIT { Ins ins = ir_ins_init(OP_EXIT, @$); put(c, &ins, @$); }
	| KW_BARRIER { Ins ins = ir_ins_init(OP_BARRIER, @$); put(c, &ins, @$); }
	;

/* A destination: a variable; special variables are read-only (§3). */
dst
	: IDENT { $$ = ir_var(c->p, text(c, @1), (size_t)@1.len, @1); }
	| SPECIAL {
		diag_error(c->d, @1, "cannot assign to special variable '%s'",
		           ir_special_name((Special)$1));
		$$ = -1;
	}
	;

dsts
	: dst { $$ = dsts_new(); dsts_push($$, $1, @1); }
	| dsts ',' dst { $$ = $1; dsts_push($$, $3, @3); }
	;

rhs
	: operand { $$ = rhs2(c, OP_COPY, &O($1), NULL); }
	/* the binary operators, spelt out: a nonterminal for them would cost
	** a reduction per statement */
	| operand '+' operand { $$ = bin(c, &O($1), BIN_ADD, &O($3)); }
	| operand '-' operand { $$ = bin(c, &O($1), BIN_SUB, &O($3)); }
	| operand '*' operand { $$ = bin(c, &O($1), BIN_MUL, &O($3)); }
	| operand '/' operand { $$ = bin(c, &O($1), BIN_DIV, &O($3)); }
	| operand '%' operand { $$ = bin(c, &O($1), BIN_MOD, &O($3)); }
	| operand '<' operand { $$ = bin(c, &O($1), BIN_LT, &O($3)); }
	| operand LE operand { $$ = bin(c, &O($1), BIN_LE, &O($3)); }
	| operand '>' operand { $$ = bin(c, &O($1), BIN_GT, &O($3)); }
	| operand GE operand { $$ = bin(c, &O($1), BIN_GE, &O($3)); }
	| operand EQ operand { $$ = bin(c, &O($1), BIN_EQ, &O($3)); }
	| operand NE operand { $$ = bin(c, &O($1), BIN_NE, &O($3)); }
	| operand '&' operand { $$ = bin(c, &O($1), BIN_AND, &O($3)); }
	| operand '|' operand { $$ = bin(c, &O($1), BIN_OR, &O($3)); }
	| operand '^' operand { $$ = bin(c, &O($1), BIN_XOR, &O($3)); }
	| operand SHL operand { $$ = bin(c, &O($1), BIN_SHL, &O($3)); }
	| operand SHR operand { $$ = bin(c, &O($1), BIN_SHR, &O($3)); }
	| operand LAND operand { $$ = bin(c, &O($1), BIN_LAND, &O($3)); }
	| operand LOR operand { $$ = bin(c, &O($1), BIN_LOR, &O($3)); }
	| operand NEGINT {
		/* `a -3` is `a - 3` (§1): the literal's sign is the operator */
		Num n;
		num_unop(UN_NEG, $2, &n);
		num_free(&$2);
		Loc l = @2;
		l.off++, l.len--;
		Opnd lit = lit_opnd(c, n, l);
		$$ = bin(c, &O($1), BIN_SUB, &lit);
	}
	| unop operand { $$ = rhs2(c, OP_UNARY, &O($2), NULL); $$->sub = (uint8_t)$1; }
	| KW_MIN '(' operand ',' operand ')' { $$ = rhs2(c, OP_BINARY, &O($3), &O($5)); $$->sub = BIN_MIN; }
	| KW_MAX '(' operand ',' operand ')' { $$ = rhs2(c, OP_BINARY, &O($3), &O($5)); $$->sub = BIN_MAX; }
	| KW_MEM '[' operand ']' { $$ = rhs2(c, OP_LOAD, &O($3), NULL); }
	| DOWN operand { $$ = rhs2(c, OP_LOAD, &O($2), NULL); }
	| KW_LOCAL '[' operand ']' { $$ = rhs2(c, OP_LLOAD, &O($3), NULL); }
	| LDOWN operand { $$ = rhs2(c, OP_LLOAD, &O($2), NULL); }
	| KW_ATOMINC '(' operand ')' { $$ = rhs2(c, OP_ATOMINC, &O($3), NULL); }
	| KW_ATOMADD '(' operand ',' operand ')' { $$ = rhs2(c, OP_ATOMADD, &O($3), &O($5)); }
	| KW_ATOMCAS '(' operand ',' operand ',' operand ')' {
		$$ = rhs2(c, OP_ATOMCAS, &O($3), &O($5));
		$$->c = O($7);
	}
	| KW_ATOMEXCH '(' operand ',' operand ')' { $$ = rhs2(c, OP_ATOMEXCH, &O($3), &O($5)); }
	;

unop
	: '-' { $$ = UN_NEG; }
	| '!' { $$ = UN_NOT; }
	| '~' { $$ = UN_BNOT; }
	;

operand
	: IDENT { $$ = opnd_push(c, ir_opnd_var(ir_var(c->p, text(c, @1), (size_t)@1.len, @1), @1)); }
	| INT { $$ = opnd_push(c, lit_opnd(c, $1, @1)); }
	| NEGINT { $$ = opnd_push(c, lit_opnd(c, $1, @1)); }
	| SPECIAL { $$ = opnd_push(c, ir_opnd_special((Special)$1, @1)); }
	;

intlit
	: INT { $$ = $1; }
	| NEGINT { $$ = $1; }
	;

/* ---- gated SSA (§4.3) -------------------------------------------------- */

gsa_call
	: gsa_op '(' gargs ')' { $$ = $3; $$->op = (uint8_t)$1; $$->loc = @$; }
	| gsa_op '[' gargs ']' { $$ = $3; $$->op = (uint8_t)$1; $$->loc = @$; }
	;

gsa_op
	: KW_PHI { $$ = OP_PHI; }
	| KW_GAMMA { $$ = OP_GAMMA; }
	| KW_MU { $$ = OP_MU; }
	| KW_ETA { $$ = OP_ETA; }
	;

gargs
	: garg {
		$$ = xcalloc(1, sizeof *$$);
		VEC_PUSH($$->v, $$->n, $$->cap, $1);
	}
	| gargs ',' garg { $$ = $1; VEC_PUSH($$->v, $$->n, $$->cap, $3); }
	;

/* A matrix argument: a tuple (one operand per destination) or, with one
** destination, a plain operand or a nested gamma (only γ's value operands
** may be one: put_gsa checks). */
garg
	: operand { $$ = list_new(O($1), false); $$->loc = @$; }
	| gate { $$ = list_new(O($1), false); $$->loc = @$; }
	| '(' olist ')' { $$ = $2; $$->tuple = true; $$->loc = @$; }
	;

/* A nested γ (Tu & Padua's composed gate): gamma(p, o1, o2) inside a γ. */
gate
	: KW_GAMMA '(' operand ',' gate_arg ',' gate_arg ')' { $$ = opnd_push(c, gate_node(c, O($3), O($5), O($7), @$)); }
	;

gate_arg
	: operand
	| gate
	;

olist
	: operand { $$ = list_new(O($1), true); }
	| olist ',' operand { $$ = $1; VEC_PUSH($$->v, $$->n, $$->cap, O($3)); }
	;

/* ---- directives (§2) --------------------------------------------------- */

/* A kernel's name is any word: reserved ones too (`.kernel sync`). */
kname
	: IDENT
	| SPECIAL { (void)$1; }
	| keyword
	;

directive
	: DIR_KERNEL kname {
		if (c->p->kernel) {
			diag_warning(c->d, @1, "'.kernel' given twice; the last one counts");
			free(c->p->kernel);
		}
		c->p->kernel = xstrndup(text(c, @2), (size_t)@2.len);
	}
	| DIR_THREADS intlit { directive_count(c, "threads", $2, @2, &c->p->threads); }
	| DIR_WARPSIZE intlit { directive_count(c, "warpsize", $2, @2, &c->p->warpsize); }
	| DIR_PARAM IDENT {
		ir_declare_param(c->p, text(c, @2), (size_t)@2.len, @2, false, NUM_I(0), c->d);
	}
	| DIR_PARAM IDENT '=' intlit {
		ir_declare_param(c->p, text(c, @2), (size_t)@2.len, @2, true, $4, c->d);
	}
	| DIR_PARAM SPECIAL {
		diag_error(c->d, @2, "'%s' is a special variable, not a parameter name",
		           ir_special_name((Special)$2));
	}
	| DIR_PARAM SPECIAL '=' intlit {
		diag_error(c->d, @2, "'%s' is a special variable, not a parameter name",
		           ir_special_name((Special)$2));
		num_free(&$4);
	}
	| data { (void)$1; }
	| DIR_FILL intlit intlit intlit {
		int64_t addr = data_addr(c, $2, @2), count = -1;
		if (!num_fits64($3) || $3.i < 0)
			diag_error(c->d, @3, "invalid .fill count: must be a non-negative integer");
		else if (addr >= 0 && $3.i > 0 && addr - 1 > INT64_MAX - $3.i)
			diag_error(c->d, @3, "invalid .fill count: the cells run past the largest address");
		else
			count = $3.i;
		if (addr >= 0 && count > 0)
			ir_add_data(c->p, addr, count, $4, @$);
		else
			num_free(&$4);
		num_free(&$2);
		num_free(&$3);
	}
	| DIR_MEMORY IDENT {
		if (@2.len == 6 && memcmp(text(c, @2), "strict", 6) == 0)
			c->p->memory_zero = false;
		else if (@2.len == 4 && memcmp(text(c, @2), "zero", 4) == 0)
			c->p->memory_zero = true;
		else
			diag_error(c->d, @2, "unknown memory mode '%.*s', expecting 'strict' or 'zero'",
			           (int)@2.len, text(c, @2));
	}
	;

/* .data ADDR: INT INT ...; the value is the next cell's address, -1
** after an error, -2 past the largest address. */
data
	: DIR_DATA intlit ':' { $$ = data_addr(c, $2, @2); num_free(&$2); }
	| data intlit {
		$$ = $1;
		if ($$ == -2) {
			diag_error(c->d, @2, "this .data runs past the largest address");
			$$ = -1;
		}
		if ($$ >= 0) {
			ir_add_data(c->p, $$, 1, $2, @2);
			$$ = $$ == INT64_MAX ? -2 : $$ + 1;
		} else {
			num_free(&$2);
		}
	}
	;

%%

static const char *text(IrParse *c, Loc loc)
{
	return c->p->src + loc.off;
}

/* (literal operands own nothing: their values are in the Program's table) */
static void ins_free(Ins *ins)
{
	free(ins->args);
	ins->args = NULL;
	ins->nargs = 0;
}

static ParseList *list_new(Opnd o, bool tuple)
{
	ParseList *l = xcalloc(1, sizeof *l);
	l->tuple = tuple;
	VEC_PUSH(l->v, l->n, l->cap, o);
	return l;
}

static void list_free(ParseList *l)
{
	if (!l)
		return;
	free(l->v);
	free(l);
}

static void call_free(ParseCall *g)
{
	if (!g)
		return;
	for (int32_t i = 0; i < g->n; i++)
		list_free(g->v[i]);
	free(g->v);
	free(g);
}

static ParseDsts *dsts_new(void)
{
	return xcalloc(1, sizeof(ParseDsts));
}

static void dsts_push(ParseDsts *ds, int32_t var, Loc loc)
{
	if (var < 0)
		ds->bad = true;
	if (ds->n >= ds->cap) {
		ds->cap = ds->cap ? 2 * ds->cap : 4;
		ds->var = xrealloc(ds->var, (size_t)ds->cap * sizeof *ds->var);
		ds->loc = xrealloc(ds->loc, (size_t)ds->cap * sizeof *ds->loc);
	}
	ds->var[ds->n] = var;
	ds->loc[ds->n] = loc;
	ds->n++;
}

static void dsts_free(ParseDsts *ds)
{
	if (!ds)
		return;
	free(ds->var);
	free(ds->loc);
	free(ds);
}

static Opnd lit_opnd(IrParse *c, Num n, Loc loc)
{
	return ir_opnd_lit(c->p, n, loc);
}

/* The Ins.loc of these is set by put. */
static Ins ins1(Op op, Opnd a)
{
	Ins ins = ir_ins_init(op, LOC_NONE);
	ins.a = a;
	return ins;
}

static Ins ins2(Op op, Opnd a, Opnd b)
{
	Ins ins = ins1(op, a);
	ins.b = b;
	return ins;
}

/* The statement's right-hand side lives in the parse context (one at a
** time: rule stmt takes it before the next can start), built in place:
** an Ins is big. Operands a and b (b may be NULL) are moved into it. */
static int32_t opnd_push(IrParse *c, Opnd o)
{
	VEC_PUSH(c->ops, c->nops, c->capops, o);
	return c->nops - 1;
}

static Ins *rhs2(IrParse *c, Op op, const Opnd *a, const Opnd *b)
{
	Ins *r = &c->rhs;
	*r = ir_ins_init(op, LOC_NONE);
	r->a = *a;
	if (b)
		r->b = *b;
	return r;
}

static Ins *bin(IrParse *c, const Opnd *a, BinOp op, const Opnd *b)
{
	Ins *ins = rhs2(c, OP_BINARY, a, b);
	ins->sub = (uint8_t)op;
	return ins;
}

static void put(IrParse *c, Ins *ins, Loc loc)
{
	ins->loc = loc;
	ir_append(c->p, ins);
}

/* Append an instruction defining dst, unless dst was rejected. */
static void put_dst(IrParse *c, Ins *ins, int32_t dst, Loc dloc, Loc loc)
{
	if (dst < 0) {
		ins_free(ins);
		return;
	}
	ins->dst = dst;
	ir_set_dst_loc(ins, dloc);
	put(c, ins, loc);
}

/* A nested γ node: kept in c->gate until put_gsa takes the statement. */
static Opnd gate_node(IrParse *c, Opnd p, Opnd o1, Opnd o2, Loc loc)
{
	int32_t depth = 1;
	const Opnd *kids[2] = {&o1, &o2};
	for (int i = 0; i < 2; i++)
		if (kids[i]->kind == OPND_GATE && c->gate_depth[kids[i]->var / 3] + 1 > depth)
			depth = c->gate_depth[kids[i]->var / 3] + 1;
	if (depth > IR_GATE_MAX_DEPTH)
		diag_error(c->d, loc, "gamma nested more than %d deep", IR_GATE_MAX_DEPTH);
	if (c->ngate + 3 > c->capgate) {
		c->capgate = c->capgate ? 2 * c->capgate : 24;
		c->gate = xrealloc(c->gate, (size_t)c->capgate * sizeof *c->gate);
		c->gate_depth = xrealloc(c->gate_depth, (size_t)(c->capgate / 3 + 1) * sizeof *c->gate_depth);
	}
	int32_t at = c->ngate;
	c->gate[at] = p;
	c->gate[at + 1] = o1;
	c->gate[at + 2] = o2;
	c->gate_depth[at / 3] = depth;
	c->ngate += 3;
	Opnd r = {.kind = OPND_GATE, .var = at};
	ir_set_opnd_loc(&r, loc);
	return r;
}

static void gates_clear(IrParse *c)
{
	c->ngate = 0;
}

/* Move the nested γ tree under ins.b and ins.c from c->gate into
** ins.args, renumbering the nodes (depth-first, explicit stack). */
static void gate_flatten(IrParse *c, Ins *ins)
{
	int32_t n = 0, sp = 0;
	Opnd *stack[2 * IR_GATE_MAX_DEPTH + 4];
	if (ins->b.kind == OPND_GATE)
		stack[sp++] = &ins->b;
	if (ins->c.kind == OPND_GATE)
		stack[sp++] = &ins->c;
	if (sp == 0)
		return;
	ins->args = xmalloc((size_t)c->ngate * sizeof *ins->args);
	while (sp > 0) {
		Opnd *o = stack[--sp];
		const Opnd *src = &c->gate[o->var];
		o->var = n;
		for (int i = 0; i < 3; i++)
			ins->args[n + i] = src[i];
		n += 3;
		for (int i = 2; i >= 1; i--)
			if (ins->args[n - 3 + i].kind == OPND_GATE && sp < (int32_t)(sizeof stack / sizeof stack[0]))
				stack[sp++] = &ins->args[n - 3 + i];
	}
	ins->nargs = n;
}

/* Check a GSA call against its destinations and expand it into one
** instruction per destination (§4.3); a matrix statement's rows share a
** fresh group. Takes ds and g. */
static void put_gsa(IrParse *c, ParseDsts *ds, ParseCall *g, Loc loc, bool matrix)
{
	Op op = (Op)g->op;
	const char *name = ir_op_name(op);
	bool ok = !ds->bad;
	int32_t k = ds->n;
	int32_t first = (op == OP_GAMMA || op == OP_ETA) ? 1 : 0; /* after the predicate */
	if (op == OP_GAMMA && g->n != 3) {
		diag_error(c->d, g->loc, "gamma takes 3 operands (p, o1, o2), found %d", (int)g->n);
		ok = false;
	} else if (op == OP_ETA && g->n != 2) {
		diag_error(c->d, g->loc, "eta takes 2 operands (p, o), found %d", (int)g->n);
		ok = false;
	} else if (op == OP_MU && g->n < 2) {
		diag_error(c->d, g->loc, "mu takes at least 2 operands (entry, back edge), found %d",
		           (int)g->n);
		ok = false;
	}
	if (ok && first && g->v[0]->n != 1) {
		diag_error(c->d, g->v[0]->loc, "the predicate of %s must be a single operand", name);
		ok = false;
	}
	for (int32_t j = 0; ok && j < g->n; j++)
		for (int32_t i = 0; i < g->v[j]->n && ok; i++) {
			if (g->v[j]->v[i].kind != OPND_GATE)
				continue;
			if (op != OP_GAMMA || j == 0 || k != 1) {
				diag_error(c->d, g->v[j]->loc,
				           "a nested gamma may only stand in a value operand of a gamma with one "
				           "destination");
				ok = false;
			}
		}
	for (int32_t j = first; ok && j < g->n; j++) {
		ParseList *a = g->v[j];
		if (a->n == k)
			continue;
		if (matrix && a->tuple)
			diag_error(c->d, a->loc,
			           "expected a tuple of %d operands (one per destination), found %d", (int)k,
			           (int)a->n);
		else if (matrix)
			diag_error(c->d, a->loc,
			           "expected a tuple of %d operands (one per destination), found a single "
			           "operand",
			           (int)k);
		else
			diag_error(c->d, a->loc, "expected a single operand, found a tuple of %d", (int)a->n);
		ok = false;
	}
	if (ok) {
		int32_t group = matrix ? c->p->ngroups++ : -1;
		for (int32_t i = 0; i < k; i++) {
			Ins ins = ir_ins_init(op, loc);
			ins.dst = ds->var[i];
			ir_set_dst_loc(&ins, ds->loc[i]);
			ins.group = group;
			switch (op) {
			case OP_GAMMA:
				ins.c = g->v[2]->v[i];
				ins.a = g->v[0]->v[0];
				ins.b = g->v[1]->v[i];
				gate_flatten(c, &ins);
				break;
			case OP_ETA:
				ins.a = g->v[0]->v[0];
				ins.b = g->v[1]->v[i];
				break;
			default:
				ins.nargs = g->n;
				ins.args = xmalloc((size_t)g->n * sizeof *ins.args);
				for (int32_t j = 0; j < g->n; j++)
					ins.args[j] = g->v[j]->v[i];
				break;
			}
			ir_append(c->p, &ins);
		}
	}
	dsts_free(ds);
	call_free(g);
	gates_clear(c);
}

/* .threads N / .warpsize N: 1 <= N <= INT32_MAX (§2). */
static void directive_count(IrParse *c, const char *name, Num n, Loc loc, int32_t *out)
{
	if (!num_fits64(n) || n.i < 1 || n.i > INT32_MAX) {
		diag_error(c->d, loc, "invalid .%s value: must be an integer from 1 to %d", name,
		           (int)INT32_MAX);
	} else {
		if (*out)
			diag_warning(c->d, loc, "'.%s' given twice; the last one counts", name);
		*out = (int32_t)n.i;
	}
	num_free(&n);
}

/* A memory address of .data / .fill: 0 <= ADDR <= INT64_MAX, else -1. */
static int64_t data_addr(IrParse *c, Num n, Loc loc)
{
	if (!num_fits64(n) || n.i < 0) {
		diag_error(c->d, loc, "invalid address: must be an integer from 0 to %lld",
		           (long long)INT64_MAX);
		return -1;
	}
	return n.i;
}

/* ---- syntax errors ---------------------------------------------------- */

/* The operator of the functional form OP(v, o1, o2) named s, or BIN__COUNT. */
static int binop_named(const char *s, size_t len)
{
	int op = 0;
	while (op < BIN__COUNT && !(strlen(num_binop_name((BinOp)op)) == len &&
	                            memcmp(num_binop_name((BinOp)op), s, len) == 0))
		op++;
	return op;
}

/* "unknown WHAT 'word'; did you mean ...?" at loc, for a word that should
** have been a mnemonic (or, when functional, an operation of the form
** OP(v, o1, o2)): false, and nothing reported, when the error is not "unknown
** WHAT" (an operation) and no mnemonic is close. */
static bool unknown_word(IrParse *c, Loc loc, const char *what, bool functional)
{
	/* the words that begin a statement (§4) */
	static const char *const mnemonics[] = {
		"bz",  "bnz",   "branch", "jump",  "sync",    "stop", "exit", "barrier",
		"mem", "local", "store",  "load",  "atominc", "const", "min", "max", "call", "ret",
	};
	const char *s = text(c, loc);
	Suggest g;
	suggest_init(&g, s, (size_t)loc.len);
	for (size_t i = 0; i < sizeof mnemonics / sizeof mnemonics[0]; i++)
		suggest_add(&g, mnemonics[i]);
	for (int op = 0; functional && op < BIN__COUNT; op++)
		suggest_add(&g, num_binop_name((BinOp)op));
	Buf b = {0};
	buf_printf(&b, "unknown %s '", what);
	if (loc.len > 40)
		buf_printf(&b, "%.37s...'", s);
	else
		buf_printf(&b, "%.*s'", (int)loc.len, s);
	buf_puts(&b, "; ");
	bool hint = suggest_print(&g, &b, "");
	if (!hint)
		b.len -= 2, b.s[b.len] = 0;
	if (hint || functional)
		diag_error(c->d, loc, "%s", buf_str(&b));
	buf_free(&b);
	return hint || functional;
}

/* A syntax error on a line whose first word is an identifier that is not
** assigned (`=`, `<-a`), not a label (`:`) and not an operation of the
** functional form: the word was meant as a mnemonic (`snyc`, `BZ`, `br`).
** Reports it, with the closest mnemonics, when one is close. */
static bool misspelt_mnemonic(IrParse *c, const Loc *loc)
{
	int t = c->after_head_tok;
	if (c->head.line != loc->line || c->after_head.line == 0 || loc->off < c->after_head.off ||
	    t == '=' || t == ':' || t == ARROW_A)
		return false;
	if (t == '(' && binop_named(text(c, c->head), (size_t)c->head.len) < BIN__COUNT)
		return false;
	return unknown_word(c, c->head, "instruction", false);
}

static bool is_binop_name(const char *s)
{
	static const char *const ops[] = {
		"'+'", "'-'", "'*'", "'/'", "'%'", "'<'", "'>'", "'&'", "'|'", "'^'",
		"'<='", "'>='", "'=='", "'!='", "'<<'", "'>>'", "'&&'", "'||'",
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(s, ops[i]) == 0)
			return true;
	return false;
}

/* What the parser would accept, in words: the token lists are long where
** a label, a statement or an expression may come, so name those. */
static void expected_words(Buf *b, const yypcontext_t *ctx)
{
	yysymbol_kind_t exp[YYNTOKENS];
	bool has[YYNTOKENS] = {0};
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	for (int i = 0; i < n; i++)
		if (exp[i] >= 0 && exp[i] < YYNTOKENS)
			has[exp[i]] = true;
	if (has[YYSYMBOL_KW_PHI] && has[YYSYMBOL_KW_BZ]) { /* only a label takes both */
		if (has[YYSYMBOL_DIR_KERNEL])
			buf_puts(b, ", expecting instruction, label or directive");
		else if (has[YYSYMBOL_NL])
			buf_puts(b, ", expecting instruction or label");
		else if (!has[YYSYMBOL_INT]) /* only a label may be a number */
			buf_puts(b, ", expecting name");
		else
			buf_puts(b, ", expecting label");
		return;
	}
	if (has[YYSYMBOL_KW_PHI] && has[YYSYMBOL_KW_MEM]) {
		buf_puts(b, ", expecting expression");
		return;
	}
	bool op = has[YYSYMBOL_SHL]; /* some binary operator: name them together */
	const char *names[YYNTOKENS];
	int k = 0;
	for (int i = 0; i < n; i++) {
		const char *s;
		switch (exp[i]) {
		case YYSYMBOL_IDENT: case YYSYMBOL_SPECIAL: s = "identifier"; break;
		case YYSYMBOL_INT: s = "integer"; break;
		case YYSYMBOL_NEGINT: s = op && !has[YYSYMBOL_INT] ? "operator" : "integer"; break;
		default:
			s = yysymbol_name(exp[i]);
			if (op && is_binop_name(s))
				s = "operator";
			break;
		}
		int j = 0;
		while (j < k && strcmp(names[j], s) != 0)
			j++;
		if (j == k)
			names[k++] = s;
	}
	if (k == 0 || k > 5)
		return;
	for (int i = 0; i + 1 < k; i++) /* "end of line" reads best last */
		if (strcmp(names[i], "end of line") == 0) {
			memmove(&names[i], &names[i + 1], (size_t)(k - i - 1) * sizeof names[0]);
			names[k - 1] = "end of line";
			break;
		}
	buf_puts(b, ", expecting ");
	for (int i = 0; i < k; i++)
		buf_printf(b, "%s%s", i == 0 ? "" : i == k - 1 ? " or " : ", ", names[i]);
}

static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, IrParse *c)
{
	(void)scanner;
	const Loc *loc = yypcontext_location(ctx);
	yysymbol_kind_t tok = yypcontext_token(ctx);
	c->err_line = loc->line;
	if (misspelt_mnemonic(c, loc))
		return 0;
	Buf b = {0};
	buf_puts(&b, "syntax error");
	if (tok != YYSYMBOL_YYEMPTY) {
		const char *s = c->p->src + loc->off;
		int len = loc->len > 40 ? 37 : loc->len;
		const char *more = loc->len > 40 ? "..." : "";
		switch (tok) {
		case YYSYMBOL_YYEOF: buf_puts(&b, ", unexpected end of file"); break;
		case YYSYMBOL_NL: buf_puts(&b, ", unexpected end of line"); break;
		case YYSYMBOL_IDENT: buf_printf(&b, ", unexpected identifier '%.*s%s'", len, s, more); break;
		case YYSYMBOL_INT: case YYSYMBOL_NEGINT:
			buf_printf(&b, ", unexpected integer '%.*s%s'", len, s, more);
			break;
		default: buf_printf(&b, ", unexpected '%.*s%s'", len, s, more); break;
		}
	}
	expected_words(&b, ctx);
	diag_error(c->d, *loc, "%s", buf_str(&b));
	buf_free(&b);
	return 0;
}

/* Only "memory exhausted" comes here: the grammar is left-recursive, so
** the stack stays shallow, but say so if it ever happens. */
static void yyerror(const Loc *loc, yyscan_t scanner, IrParse *c, const char *msg)
{
	(void)scanner;
	diag_error(c->d, *loc, "%s", msg);
}

void ir_parse_src(Program *p, Diags *d)
{
	IrParse c = {.p = p, .d = d, .line = 1, .at_bol = true};
	yyscan_t sc;
	if (yylex_init_extra(&c, &sc) != 0)
		abort(); /* out of memory, as xmalloc would */
	/* one statement per line, as a rule: room for them at once */
	int32_t nlines = 1;
	for (const char *s = p->src, *e = p->src + p->srclen; (s = memchr(s, '\n', (size_t)(e - s))) != NULL; s++)
		nlines++;
	ir_reserve(p, nlines, 0);
	/* in place, not a copy: ir_new ends p->src with the two NUL bytes flex
	** wants (it puts a NUL after each token while it is being matched and
	** puts the byte back before the next) */
	YY_BUFFER_STATE buf = yy_scan_buffer(p->src, p->srclen + 2, sc);
	c.base = buf->yy_ch_buf;
	yyparse(sc, &c);
	gates_clear(&c);
	free(c.ops);
	free(c.gate);
	free(c.gate_depth);
	yy_delete_buffer(buf, sc);
	yylex_destroy(sc);
}
