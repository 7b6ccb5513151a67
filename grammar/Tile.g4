// Tile.g4: the grammar of the Tile language (.tile files).
//
// Pure syntax: no semantic actions, no embedded code. compiler/Parser.cpp walks the parse tree and builds the AST;
// every meaning (dtypes, shapes, distributions, which names exist) is decided later by Sema. Keywords are kept few:
// `block`, dtype names and function names such as `max` are ordinary identifiers that Sema resolves, so a misspelt
// dtype gets a precise error instead of a syntax error.
grammar Tile;

program       : targetDecl? kernelDecl* EOF ;

targetDecl    : 'target' IDENT ';' ;

kernelDecl    : 'kernel' IDENT '(' paramList? ')' '{' stmt* '}' ;
paramList     : param (',' param)* ;
param         : IDENT ':' paramType ;
paramType     : 'global' IDENT '[' dimList ']' strideSpec?            # tensorType
              | IDENT                                                 # scalarType
              ;
dimList       : dim (',' dim)* ;
dim           : IDENT | INT ;
// `stride lda`: the distance in elements between the starts of consecutive rows (BLAS's leading dimension).
strideSpec    : 'stride' dim ;

stmt          : 'workgroup' INT ';'                                   # workgroupStmt
              | 'grid' 'over' IDENT 'tile' '[' dim (',' dim)* ']' ';'  # gridStmt
              | 'tile' IDENT ':' IDENT shape (distribution vecSpec?)? ';'  # tileDecl
              | 'lds' IDENT ':' IDENT shape ('pad' INT)? ';'          # ldsDecl
              | 'acc' IDENT ':' IDENT shape 'mfma' mfmaName wavesSpec? ';'  # accDecl
              | 'assume' expr ';'                                     # assumeStmt
              | IDENT op=('=' | '+=') expr ';'                        # assignStmt
              | 'store' window '=' expr ';'                           # storeStmt
              | 'for' IDENT 'in' expr '..' expr ('step' expr)? pipelineSpec? '{' stmt* '}'  # forStmt
              | 'barrier' ';'                                         # barrierStmt
              ;

shape         : '[' INT (',' INT)* ']' ;
distribution  : 'thread_raked'                                        # threadRaked
              | 'warp_raked'                                          # warpRaked
              | 'block_raked' wavesSpec?                              # blockRaked
              ;
wavesSpec     : 'waves' '[' INT ',' INT ']' ;
vecSpec       : 'vec' (INT | 'auto') ;
pipelineSpec  : 'pipeline' INT ;
mfmaName      : IDENT | 'auto' ;

// A call argument, positional or named (`axis = 1`).
callArg       : (IDENT '=')? expr ;

window        : IDENT '[' expr (',' expr)* ']' ;

expr          : 'load' window ('else' expr)?                          # loadExpr
              | 'cast' '<' IDENT (',' IDENT)? '>' '(' expr ')'        # castExpr
              | IDENT '(' (callArg (',' callArg)*)? ')'               # callExpr
              | IDENT '.' IDENT                                       # memberExpr
              | '(' expr ')'                                          # parenExpr
              | '-' expr                                              # negExpr
              | expr op=('*' | '/' | '%') expr                        # binaryExpr
              | expr op=('+' | '-') expr                              # binaryExpr
              | expr op=('<' | '<=' | '>' | '>=' | '==' | '!=') expr   # binaryExpr
              | IDENT                                                 # nameExpr
              | INT                                                   # intExpr
              | FLOAT                                                 # floatExpr
              ;

IDENT         : [a-zA-Z_] [a-zA-Z_0-9]* ;
INT           : [0-9]+ ;
FLOAT         : [0-9]+ '.' [0-9]+ ([eE] [+-]? [0-9]+)?
              | [0-9]+ [eE] [+-]? [0-9]+
              ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
// Anything else becomes one token that the parser rejects with a located syntax error.
INVALID       : . ;
