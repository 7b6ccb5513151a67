//===- Parser.h - From the text of a .tile file to its AST ------------------===//
//
// The only entry point to the ANTLR-generated parser. Syntax errors are reported through the DiagnosticEngine in the
// same `file:line:col` form as every other error (ANTLR's console listeners are removed); all syntax errors of a file
// are reported in one run, and no AST is returned when there was any.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PARSER_H
#define TILEC_PARSER_H

#include "frontend/AST.h"
#include "support/Diagnostics.h"
#include <optional>

namespace tilec {

/// Parses buffer `bufferID` of the engine's SourceMgr. Returns std::nullopt after reporting syntax errors.
std::optional<ast::Program> parseProgram(unsigned bufferID, DiagnosticEngine &diags);

} // namespace tilec

#endif
