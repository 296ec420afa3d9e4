// Mutation points found on libclang's syntax tree (cpp_mutants.hpp has the room's theory).
//
// A walk over the tree collects points: an expression's byte range, the ranges of its operands,
// the text of its operator and the replacements its operand types allow. The schema is then the
// source rendered with every point replaced by its choice, innermost first: a point's operands
// are rendered in turn, so points nested in others (a < b inside a negated condition, a constant
// inside an operand) are all compiled in. Points with the same range nest by a fixed order (a
// negated condition outside the comparison it holds).
#include "io/mutation/cpp_mutants.hpp"

#include <clang-c/Index.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "io/mutation/libclang_api.hpp"

namespace gamebatch::io {
namespace {

using detail::libclang;

// The schema's prelude. Standard C++17: one global read once at start-up, before the program's
// own globals (it is defined first); a choice's operands are a call's arguments, so each is
// evaluated once; the operator applied to them is the original's unless the mutant chosen is one
// of this point's.
constexpr std::string_view kPrelude =
    R"prelude(// The mutant schema of a solution, written by gamebatch strength: every mutant compiled in,
// GAMEBATCH_MUTANT=K runs mutant K (0 or unset: the solution as it is).
#include <cstdlib>
#include <type_traits>
namespace gamebatch_mutant {
inline long read_active() {
  const char* value = std::getenv("GAMEBATCH_MUTANT");
  return value != nullptr ? std::strtol(value, nullptr, 10) : 0;
}
inline const long active = read_active();
inline bool on(long id) { return active == id; }
// The k-th of a point's mutants is chosen: k, or -1 for none of them.
inline long pick(long first, long count) {
  const unsigned long k = static_cast<unsigned long>(active - first);
  return __builtin_expect(k < static_cast<unsigned long>(count), 0) ? static_cast<long>(k) : -1;
}
// Each choice is inlined as the original operation behind one test of `active`; the mutants'
// operations are out of line, shared by the points of the same types (a small, quick compile).
template <int Op, class A, class B> inline bool compare(const A& a, const B& b) {
  if constexpr (Op == 0) return a < b;
  else if constexpr (Op == 1) return a <= b;
  else if constexpr (Op == 2) return a > b;
  else if constexpr (Op == 3) return a >= b;
  else if constexpr (Op == 4) return a == b;
  else return a != b;
}
template <int... Ops, class A, class B> [[gnu::noinline]] bool compare_mutant(long k, A a, B b) {
  constexpr int ops[] = {Ops...};
  switch (ops[k]) {
    case 0: return a < b;
    case 1: return a <= b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a == b;
    default: return a != b;
  }
}
template <int Op, int... Ops, class A, class B>
inline bool relational(long first, const A& a, const B& b) {
  const long k = pick(first, sizeof...(Ops));
  return k < 0 ? compare<Op>(a, b) : compare_mutant<Ops...>(k, a, b);
}
template <int Op, class A, class B> inline auto compute(const A& a, const B& b) -> decltype(a + b) {
  if constexpr (Op == 0) return a + b;
  else if constexpr (Op == 1) return a - b;
  else if constexpr (Op == 2) return a * b;
  else if constexpr (Op == 3) return a / b;
  else if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) return a % b;
  else return a + b;  // never chosen: % is made on integers only
}
template <int... Ops, class A, class B>
[[gnu::noinline]] auto compute_mutant(long k, A a, B b) -> decltype(a + b) {
  constexpr int ops[] = {Ops...};
  switch (ops[k]) {
    case 0: return compute<0>(a, b);
    case 1: return compute<1>(a, b);
    case 2: return compute<2>(a, b);
    case 3: return compute<3>(a, b);
    default: return compute<4>(a, b);
  }
}
template <int Op, int... Ops, class A, class B>
inline auto arithmetic(long first, const A& a, const B& b) -> decltype(a + b) {
  const long k = pick(first, sizeof...(Ops));
  return k < 0 ? compute<Op>(a, b) : compute_mutant<Ops...>(k, a, b);
}
template <int Op, class A, class B> inline A& update(A& a, const B& b) {
  if constexpr (Op == 0) return a += b;
  else if constexpr (Op == 1) return a -= b;
  else if constexpr (Op == 2) return a *= b;
  else if constexpr (Op == 3) return a /= b;
  else if constexpr (std::is_integral<A>::value && std::is_integral<B>::value) return a %= b;
  else return a += b;  // never chosen
}
template <int... Ops, class A, class B> [[gnu::noinline]] void update_mutant(long k, A& a, B b) {
  constexpr int ops[] = {Ops...};
  switch (ops[k]) {
    case 0: update<0>(a, b); break;
    case 1: update<1>(a, b); break;
    case 2: update<2>(a, b); break;
    case 3: update<3>(a, b); break;
    default: update<4>(a, b); break;
  }
}
template <int Op, int... Ops, class A, class B> inline A& assign(long first, A& a, const B& b) {
  const long k = pick(first, sizeof...(Ops));
  if (k < 0) return update<Op>(a, b);
  update_mutant<Ops...>(k, a, b);
  return a;
}
inline bool negate(long id, bool condition) { return on(id) ? !condition : condition; }
template <class T, long long... Values> [[gnu::noinline]] T constant_mutant(long k) {
  constexpr long long values[] = {Values...};
  return static_cast<T>(values[k]);
}
template <long long... Values, class T> inline T constant(long first, T value) {
  const long k = pick(first, sizeof...(Values));
  return k < 0 ? value : constant_mutant<T, Values...>(k);
}
}  // namespace gamebatch_mutant
)prelude";

constexpr const char* kRelational[] = {"<", "<=", ">", ">=", "==", "!="};
constexpr const char* kArithmetic[] = {"+", "-", "*", "/", "%"};
constexpr const char* kAssignment[] = {"+=", "-=", "*=", "/=", "%="};

int index_of(const auto& table, std::string_view spelling) {
  for (std::size_t k = 0; k < std::size(table); ++k) {
    if (spelling == table[k])
      return static_cast<int>(k);
  }
  return -1;
}

struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool contains(const Range& other) const { return begin <= other.begin && other.end <= end; }
};

// A mutation point: where, what, and its mutants' replacements.
struct Point {
  MutationOperator op = MutationOperator::relational;
  Range range;                    // the expression rendered as a choice
  Range left, right;              // operands (binary), the condition (NEG), the operand (INC)
  Range token;                    // the operator, literal or callee edited in a mutant alone
  std::string spelling;           // its text
  int original = 0;               // the original operator's index in its table
  std::vector<int> alternatives;  // operator indices (ROR, AOR, ASR)
  std::vector<long long> values;  // CRP's replacements
  std::string swapped;            // MMS's other callee, INC's other operator
  bool prefix = false;            // INC: ++i rather than i++
  int first_id = 0;
  std::size_t line = 0, column = 0;
  int rank = 0;  // nesting order of points with the same range: lower is outside
  std::size_t count() const;
};

std::size_t Point::count() const {
  switch (op) {
    case MutationOperator::relational:
    case MutationOperator::arithmetic:
    case MutationOperator::assignment:
      return alternatives.size();
    case MutationOperator::constant:
      return values.size();
    case MutationOperator::increment:
      return 2;  // removed; swapped
    default:
      return 1;
  }
}

std::string text_of(CXString string) {
  const char* chars = libclang().clang_getCString(string);
  std::string text = chars != nullptr ? chars : "";
  libclang().clang_disposeString(string);
  return text;
}

// What the walk knows of where it is.
struct Context {
  bool in_body = false;   // inside a function body that runs at run time
  bool constant = false;  // inside a constant expression
};

class PointFinder {
 public:
  PointFinder(CXTranslationUnit unit, std::string_view text, const std::set<std::size_t>& skip)
      : unit_(unit), text_(text), skip_lines_(skip) {
    main_file_ = libclang().clang_getFile(
        unit, text_of(libclang().clang_getTranslationUnitSpelling(unit)).c_str());
  }
  void walk(CXCursor cursor, Context context);
  std::vector<Point> points;
  std::map<std::string, std::size_t> left_out;

 private:
  struct Token {
    std::string spelling;
    Range range;
    CXTokenKind kind;
  };
  std::optional<Range> range_of(CXCursor cursor) const;
  std::vector<Token> tokens_of(CXCursor cursor) const {
    return tokens_in(libclang().clang_getCursorExtent(cursor));
  }
  std::vector<Token> tokens_in(CXSourceRange extent) const;
  std::vector<CXCursor> children_of(CXCursor cursor) const;
  void add(Point point, const std::string& why_not = "");
  void binary(CXCursor cursor, bool compound);
  void literal(CXCursor cursor, CXCursor parent);
  struct Head {
    bool valid = false;
    Range parentheses;         // ( ... ) of the head
    std::vector<Range> parts;  // what stands between them and the semicolons in them
  };
  Head head_of(CXCursor cursor, CXCursorKind kind) const;
  void condition(CXCursor cursor, CXCursorKind kind);
  void call(CXCursor cursor);
  void increment(CXCursor cursor, CXCursor parent);
  bool declares_constant(CXCursor cursor) const;
  Context child_context(CXCursor cursor, bool constant_declaration, CXCursor child,
                        std::size_t index, Context context) const;
  void place(Point& point) const;

  CXTranslationUnit unit_;
  std::string_view text_;
  const std::set<std::size_t>& skip_lines_;
  CXFile main_file_;
  std::vector<CXCursor> parents_;
};

std::optional<Range> PointFinder::range_of(CXCursor cursor) const {
  const CXSourceRange extent = libclang().clang_getCursorExtent(cursor);
  CXFile file_begin, file_end, spelled_begin, spelled_end;
  unsigned begin = 0, end = 0, spelled_b = 0, spelled_e = 0, line = 0, column = 0;
  const CXSourceLocation start = libclang().clang_getRangeStart(extent);
  const CXSourceLocation stop = libclang().clang_getRangeEnd(extent);
  libclang().clang_getExpansionLocation(start, &file_begin, &line, &column, &begin);
  libclang().clang_getExpansionLocation(stop, &file_end, &line, &column, &end);
  libclang().clang_getSpellingLocation(start, &spelled_begin, &line, &column, &spelled_b);
  libclang().clang_getSpellingLocation(stop, &spelled_end, &line, &column, &spelled_e);
  // Outside the source, or from a macro (its spelling lies elsewhere than its expansion).
  if (!libclang().clang_File_isEqual(file_begin, main_file_) ||
      !libclang().clang_File_isEqual(file_end, main_file_) || spelled_b != begin ||
      spelled_e != end || begin >= end || end > text_.size())
    return std::nullopt;
  return Range{begin, end};
}

std::vector<PointFinder::Token> PointFinder::tokens_in(CXSourceRange extent) const {
  CXToken* tokens = nullptr;
  unsigned count = 0;
  libclang().clang_tokenize(unit_, extent, &tokens, &count);
  std::vector<Token> result;
  for (unsigned k = 0; k < count; ++k) {
    const CXSourceRange token_extent = libclang().clang_getTokenExtent(unit_, tokens[k]);
    CXFile file;
    unsigned line = 0, column = 0, begin = 0, end = 0;
    libclang().clang_getSpellingLocation(libclang().clang_getRangeStart(token_extent), &file, &line,
                                         &column, &begin);
    libclang().clang_getSpellingLocation(libclang().clang_getRangeEnd(token_extent), &file, &line,
                                         &column, &end);
    result.push_back({text_of(libclang().clang_getTokenSpelling(unit_, tokens[k])),
                      Range{begin, end}, libclang().clang_getTokenKind(tokens[k])});
  }
  libclang().clang_disposeTokens(unit_, tokens, count);
  return result;
}

std::vector<CXCursor> PointFinder::children_of(CXCursor cursor) const {
  std::vector<CXCursor> children;
  libclang().clang_visitChildren(
      cursor,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &children);
  return children;
}

bool is_arithmetic(CXType type) {
  const CXTypeKind kind = libclang().clang_getCanonicalType(type).kind;
  return kind >= CXType_Bool && kind <= CXType_LongDouble;
}

bool is_integral(CXType type) {
  const CXTypeKind kind = libclang().clang_getCanonicalType(type).kind;
  return kind >= CXType_Bool && kind <= CXType_Int128;
}

bool is_function_like(CXCursorKind kind) {
  return kind == CXCursor_FunctionDecl || kind == CXCursor_CXXMethod ||
         kind == CXCursor_Constructor || kind == CXCursor_Destructor ||
         kind == CXCursor_ConversionFunction || kind == CXCursor_FunctionTemplate ||
         kind == CXCursor_LambdaExpr;
}

void PointFinder::place(Point& point) const {
  CXFile file;
  unsigned line = 0, column = 0, offset = 0;
  const CXSourceLocation location = libclang().clang_getLocationForOffset(
      unit_, main_file_, static_cast<unsigned>(point.token.begin));
  libclang().clang_getSpellingLocation(location, &file, &line, &column, &offset);
  point.line = line;
  point.column = column;
}

void PointFinder::add(Point point, const std::string& why_not) {
  place(point);
  if (!why_not.empty()) {
    ++left_out[why_not];
    return;
  }
  if (skip_lines_.count(point.line) != 0) {
    ++left_out["points on lines where the schema did not compile"];
    return;
  }
  if (point.count() == 0)
    return;
  points.push_back(std::move(point));
}

// Tokens before a declaration's name that make it a constant: const, constexpr, consteval.
bool PointFinder::declares_constant(CXCursor cursor) const {
  const CXSourceRange before_name = libclang().clang_getRange(
      libclang().clang_getRangeStart(libclang().clang_getCursorExtent(cursor)),
      libclang().clang_getCursorLocation(cursor));
  for (const Token& token : tokens_in(before_name)) {
    if (token.spelling == "constexpr" || token.spelling == "consteval" ||
        token.spelling == "const" || token.spelling == "constinit")
      return true;
  }
  return false;
}

Context PointFinder::child_context(CXCursor cursor, bool constant_declaration, CXCursor child,
                                   std::size_t index, Context context) const {
  const CXCursorKind kind = libclang().clang_getCursorKind(cursor);
  const CXCursorKind child_kind = libclang().clang_getCursorKind(child);
  if (is_function_like(kind)) {
    // The body runs at run time unless the function is a constant one; parameters' defaults and
    // the rest are not code of the body.
    context.in_body = child_kind == CXCursor_CompoundStmt && !constant_declaration;
    context.constant = false;
    return context;
  }
  switch (kind) {
    case CXCursor_VarDecl:
      if (constant_declaration ||
          libclang().clang_getCursorType(cursor).kind == CXType_ConstantArray ||
          libclang().clang_getCursorType(cursor).kind == CXType_VariableArray)
        context.constant = true;
      break;
    case CXCursor_CaseStmt:
      if (index == 0)
        context.constant = true;
      break;
    case CXCursor_StaticAssert:
    case CXCursor_EnumDecl:
    case CXCursor_EnumConstantDecl:
    case CXCursor_TemplateRef:
    case CXCursor_TypeRef:
    case CXCursor_NonTypeTemplateParameter:
    case CXCursor_TemplateTypeParameter:
    case CXCursor_FieldDecl:
    case CXCursor_ParmDecl:
      context.constant = true;
      break;
    case CXCursor_IfStmt: {
      const std::vector<Token> tokens = tokens_of(cursor);
      if (tokens.size() > 1 && tokens[1].spelling == "constexpr" && index == 0)
        context.constant = true;
      break;
    }
    default:
      break;
  }
  if (kind == CXCursor_ClassDecl || kind == CXCursor_StructDecl || kind == CXCursor_UnionDecl ||
      kind == CXCursor_Namespace || kind == CXCursor_TranslationUnit)
    context = Context{};
  return context;
}

void PointFinder::walk(CXCursor cursor, Context context) {
  const CXCursorKind kind = libclang().clang_getCursorKind(cursor);
  // Nothing outside the source is mutated: the headers' declarations (most of the tree) are not
  // walked at all.
  if (kind != CXCursor_TranslationUnit &&
      !libclang().clang_Location_isFromMainFile(libclang().clang_getCursorLocation(cursor)))
    return;
  const CXCursor parent = parents_.empty() ? libclang().clang_getNullCursor() : parents_.back();
  if (context.in_body) {
    if (context.constant) {
      if (kind == CXCursor_IntegerLiteral && range_of(cursor))
        ++left_out["constants in constant expressions"];
    } else if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) {
      binary(cursor, kind == CXCursor_CompoundAssignOperator);
    } else if (kind == CXCursor_IntegerLiteral) {
      literal(cursor, parent);
    } else if (kind == CXCursor_IfStmt || kind == CXCursor_WhileStmt || kind == CXCursor_ForStmt ||
               kind == CXCursor_DoStmt || kind == CXCursor_ConditionalOperator) {
      condition(cursor, kind);
    } else if (kind == CXCursor_CallExpr) {
      call(cursor);
    } else if (kind == CXCursor_UnaryOperator) {
      increment(cursor, parent);
    }
  }
  const std::vector<CXCursor> children = children_of(cursor);
  const bool constant_declaration =
      (is_function_like(kind) || kind == CXCursor_VarDecl) && declares_constant(cursor);
  // A variable's type is spelled before its name: its template arguments are constants.
  std::size_t name = 0;
  if (kind == CXCursor_VarDecl) {
    CXFile file;
    unsigned line = 0, column = 0, offset = 0;
    libclang().clang_getSpellingLocation(libclang().clang_getCursorLocation(cursor), &file, &line,
                                         &column, &offset);
    name = offset;
  }
  parents_.push_back(cursor);
  for (std::size_t k = 0; k < children.size(); ++k) {
    Context inner = child_context(cursor, constant_declaration, children[k], k, context);
    if (kind == CXCursor_VarDecl) {
      const std::optional<Range> range = range_of(children[k]);
      inner.constant = inner.constant || (range && range->end <= name);
    }
    walk(children[k], inner);
  }
  parents_.pop_back();
}

void PointFinder::binary(CXCursor cursor, bool compound) {
  const std::vector<CXCursor> children = children_of(cursor);
  const std::optional<Range> whole = range_of(cursor);
  if (children.size() != 2 || !whole)
    return;
  const std::optional<Range> left = range_of(children[0]);
  const std::optional<Range> right = range_of(children[1]);
  if (!left || !right)
    return;
  Point point;
  point.range = *whole;
  point.left = *left;
  point.right = *right;
  for (const Token& token : tokens_of(cursor)) {
    if (token.range.begin >= left->end && token.kind == CXToken_Punctuation) {
      point.token = token.range;
      point.spelling = token.spelling;
      break;
    }
  }
  const bool arithmetic = is_arithmetic(libclang().clang_getCursorType(children[0])) &&
                          is_arithmetic(libclang().clang_getCursorType(children[1]));
  const bool integral = is_integral(libclang().clang_getCursorType(children[0])) &&
                        is_integral(libclang().clang_getCursorType(children[1]));
  const auto alternatives = [&](const auto& table, int original, bool allow_remainder) {
    for (int k = 0; k < static_cast<int>(std::size(table)); ++k) {
      if (k != original && (k != 4 || allow_remainder))
        point.alternatives.push_back(k);
    }
  };
  point.rank = 2;
  if (compound) {
    point.op = MutationOperator::assignment;
    point.original = index_of(kAssignment, point.spelling);
    if (point.original < 0)
      return;  // <<=, &= and the like: not mutated
    alternatives(kAssignment, point.original, integral);
    add(std::move(point), arithmetic ? "" : "compound assignments on operands that are no numbers");
  } else if (point.spelling == "&&" || point.spelling == "||") {
    point.op = MutationOperator::logical;
    add(std::move(point));
  } else if ((point.original = index_of(kRelational, point.spelling)) >= 0) {
    point.op = MutationOperator::relational;
    alternatives(kRelational, point.original, true);
    add(std::move(point), arithmetic ? "" : "comparisons of operands that are no numbers");
  } else if ((point.original = index_of(kArithmetic, point.spelling)) >= 0) {
    point.op = MutationOperator::arithmetic;
    alternatives(kArithmetic, point.original, integral);
    add(std::move(point), arithmetic ? "" : "arithmetic on operands that are no numbers");
  }
}

void PointFinder::literal(CXCursor cursor, CXCursor parent) {
  const std::optional<Range> range = range_of(cursor);
  if (!range)
    return;
  const std::string text(text_.substr(range->begin, range->end - range->begin));
  std::string digits;
  for (const char c : text) {
    if (c != '\'')
      digits += c;
  }
  // A plain decimal literal (suffixes kept by the type the schema's call takes from it).
  std::size_t length = 0;
  while (length < digits.size() && digits[length] >= '0' && digits[length] <= '9')
    ++length;
  long long value = 0;
  const bool decimal =
      length > 0 && (digits[0] != '0' || length == 1) &&
      std::from_chars(digits.data(), digits.data() + length, value).ec == std::errc{};
  const CXCursorKind parent_kind = libclang().clang_getCursorKind(parent);
  const CXTypeKind parent_type =
      libclang().clang_getCanonicalType(libclang().clang_getCursorType(parent)).kind;
  Point point;
  point.op = MutationOperator::constant;
  point.range = point.token = *range;
  point.spelling = text;
  point.rank = 4;
  if (!decimal || value == std::numeric_limits<long long>::max()) {
    add(std::move(point), "constants not written in decimal");
    return;
  }
  // A template's argument (width<7>(), get<0>(t)) is a child of the reference to the template.
  const bool template_argument = parent_kind == CXCursor_DeclRefExpr ||
                                 parent_kind == CXCursor_MemberRefExpr ||
                                 parent_kind == CXCursor_OverloadedDeclRef;
  if (template_argument) {
    add(std::move(point), "constants in constant expressions");
    return;
  }
  if (parent_type == CXType_Pointer || parent_type == CXType_NullPtr ||
      (!libclang().clang_isExpression(parent_kind) && !libclang().clang_isStatement(parent_kind) &&
       parent_kind != CXCursor_VarDecl)) {
    add(std::move(point), "constants used as something else than a number");
    return;
  }
  for (const long long other : {0LL, 1LL, -1LL, value + 1, value - 1}) {
    if (other != value &&
        std::find(point.values.begin(), point.values.end(), other) == point.values.end())
      point.values.push_back(other);
  }
  add(std::move(point));
}

// The parts of a statement's head: `if (...)`, `while (...)`, `for (init; condition; step)`,
// `do ... while (...)`; empty where its tokens are not such (a macro, if constexpr).
PointFinder::Head PointFinder::head_of(CXCursor cursor, CXCursorKind kind) const {
  const std::vector<Token> tokens = tokens_of(cursor);
  Head head;
  std::size_t open = 1;
  if (kind == CXCursor_DoStmt) {
    open = tokens.size();
    for (std::size_t k = tokens.size(); k-- > 0;) {
      if (tokens[k].spelling == "while") {
        open = k + 1;
        break;
      }
    }
  } else if (tokens.size() > 1 && tokens[1].spelling == "constexpr") {
    return head;  // a constant expression
  }
  if (open >= tokens.size() || tokens[open].spelling != "(")
    return head;
  int depth = 0;
  std::vector<std::size_t> semicolons;
  for (std::size_t k = open; k < tokens.size(); ++k) {
    depth += tokens[k].spelling == "(" || tokens[k].spelling == "[" || tokens[k].spelling == "{";
    depth -= tokens[k].spelling == ")" || tokens[k].spelling == "]" || tokens[k].spelling == "}";
    if (depth == 1 && tokens[k].spelling == ";")
      semicolons.push_back(k);
    if (depth == 0) {
      head.valid = true;
      head.parentheses = Range{tokens[open].range.begin, tokens[k].range.end};
      std::size_t from = tokens[open].range.end;
      for (const std::size_t semicolon : semicolons) {
        head.parts.push_back(Range{from, tokens[semicolon].range.begin});
        from = tokens[semicolon].range.end;
      }
      head.parts.push_back(Range{from, tokens[k].range.begin});
      return head;
    }
  }
  return head;
}

// The condition of if, while, for, do or ?: (an expression, not a declaration).
void PointFinder::condition(CXCursor cursor, CXCursorKind kind) {
  const std::vector<CXCursor> children = children_of(cursor);
  std::optional<Range> within;  // the parentheses (for's: between its two semicolons)
  if (kind == CXCursor_ConditionalOperator) {
    if (!children.empty())
      within = range_of(children[0]);
  } else {
    const Head head = head_of(cursor, kind);
    if (!head.valid)
      return;
    if (kind == CXCursor_ForStmt) {
      if (head.parts.size() != 3 || head.parts[1].begin == head.parts[1].end)
        return;  // for (;;): nothing to negate
      within = head.parts[1];
    } else if (head.parts.size() != 1) {
      return;  // an init-statement: left alone
    } else {
      within = head.parts[0];
    }
  }
  if (!within)
    return;
  for (const CXCursor& child : children) {
    const std::optional<Range> range = range_of(child);
    if (!range || !within->contains(*range))
      continue;
    if (!libclang().clang_isExpression(libclang().clang_getCursorKind(child)))
      return;  // a declaration in the condition: if (int x = f())
    Point point;
    point.op = MutationOperator::negated_condition;
    point.range = point.left = point.token = *range;
    point.rank = 0;
    add(std::move(point));
    return;
  }
}

// std::min(...) and std::max(...).
void PointFinder::call(CXCursor cursor) {
  const CXCursor callee = libclang().clang_getCursorReferenced(cursor);
  const std::string name = text_of(libclang().clang_getCursorSpelling(callee));
  if (name != "min" && name != "max")
    return;
  const CXCursor owner = libclang().clang_getCursorSemanticParent(callee);
  if (libclang().clang_getCursorKind(owner) != CXCursor_Namespace ||
      text_of(libclang().clang_getCursorSpelling(owner)) != "std")
    return;
  const std::optional<Range> whole = range_of(cursor);
  if (!whole)
    return;
  for (const Token& token : tokens_of(cursor)) {
    if (token.spelling == name && token.kind == CXToken_Identifier) {
      Point point;
      point.op = MutationOperator::min_max;
      point.range = *whole;
      point.token = token.range;
      point.spelling = name;
      point.swapped = name == "min" ? "max" : "min";
      point.rank = 1;
      add(std::move(point));
      return;
    }
  }
}

// ++ and -- whose value is not used: a statement of their own, or a for loop's step.
void PointFinder::increment(CXCursor cursor, CXCursor parent) {
  const std::vector<Token> tokens = tokens_of(cursor);
  const std::vector<CXCursor> children = children_of(cursor);
  const std::optional<Range> whole = range_of(cursor);
  if (tokens.empty() || children.size() != 1 || !whole)
    return;
  const bool prefix = tokens.front().spelling == "++" || tokens.front().spelling == "--";
  const Token& op = prefix ? tokens.front() : tokens.back();
  if (op.spelling != "++" && op.spelling != "--")
    return;
  // A statement of its own (in a block, or the body of if, while, for or do), or a for's step.
  const CXCursorKind parent_kind = libclang().clang_getCursorKind(parent);
  if (parent_kind != CXCursor_CompoundStmt) {
    if (parent_kind != CXCursor_IfStmt && parent_kind != CXCursor_WhileStmt &&
        parent_kind != CXCursor_ForStmt && parent_kind != CXCursor_DoStmt)
      return;
    const Head head = head_of(parent, parent_kind);
    if (!head.valid)
      return;
    const bool in_head = head.parentheses.contains(*whole);
    const bool step =
        parent_kind == CXCursor_ForStmt && head.parts.size() == 3 && head.parts[2].contains(*whole);
    if (in_head && !step)
      return;
  }
  const std::optional<Range> operand = range_of(children[0]);
  if (!operand)
    return;
  Point point;
  point.op = MutationOperator::increment;
  point.range = *whole;
  point.left = *operand;
  point.token = op.range;
  point.spelling = op.spelling;
  point.swapped = op.spelling == "++" ? "--" : "++";
  point.prefix = prefix;
  point.rank = 3;
  add(std::move(point));
}

// The schema's text: points rendered as their choices, innermost first.
class Renderer {
 public:
  Renderer(std::string_view text, const std::vector<Point>& points)
      : text_(text), points_(points) {}

  // [range) with every point inside it rendered, but those up to and including `after` in the
  // points' order (the point whose pieces are being rendered, and those holding it).
  std::string render(Range range, std::ptrdiff_t after) const {
    std::string out;
    std::size_t at = range.begin;
    for (std::size_t k = static_cast<std::size_t>(after + 1); k < points_.size(); ++k) {
      const Point& point = points_[k];
      if (point.range.begin >= range.end)
        break;
      if (point.range.begin < at || !range.contains(point.range))
        continue;
      out.append(text_.substr(at, point.range.begin - at));
      out += choice(k);
      at = point.range.end;
    }
    out.append(text_.substr(at, range.end - at));
    return out;
  }

 private:
  std::string ids(const Point& point) const {
    std::string list;
    for (const int alternative : point.alternatives)
      list += ", " + std::to_string(alternative);
    return list;
  }
  std::string choice(std::size_t k) const {
    const Point& p = points_[k];
    const auto self = static_cast<std::ptrdiff_t>(k);
    const std::string id = std::to_string(p.first_id);
    const std::string on = "gamebatch_mutant::on(" + id + ")";
    const auto piece = [&](Range range) { return render(range, self); };
    switch (p.op) {
      case MutationOperator::relational:
        return "gamebatch_mutant::relational<" + std::to_string(p.original) + ids(p) + ">(" + id +
               ", " + piece(p.left) + ", " + piece(p.right) + ")";
      case MutationOperator::arithmetic:
        return "gamebatch_mutant::arithmetic<" + std::to_string(p.original) + ids(p) + ">(" + id +
               ", " + piece(p.left) + ", " + piece(p.right) + ")";
      case MutationOperator::assignment:
        return "gamebatch_mutant::assign<" + std::to_string(p.original) + ids(p) + ">(" + id +
               ", " + piece(p.left) + ", " + piece(p.right) + ")";
      case MutationOperator::logical: {
        const std::string right = "static_cast<bool>(" + piece(p.right) + ")";
        if (p.spelling == "&&")
          return "((" + piece(p.left) + ") ? (" + on + " || " + right + ") : (" + on + " && " +
                 right + "))";
        return "((" + piece(p.left) + ") ? (!" + on + " || " + right + ") : (!" + on + " && " +
               right + "))";
      }
      case MutationOperator::constant: {
        std::string values;
        for (const long long value : p.values)
          values += (values.empty() ? "" : ", ") + std::to_string(value) + "LL";
        return "gamebatch_mutant::constant<" + values + ">(" + id + ", " + p.spelling + ")";
      }
      case MutationOperator::negated_condition:
        return "gamebatch_mutant::negate(" + id + ", static_cast<bool>(" + piece(p.left) + "))";
      case MutationOperator::min_max: {
        const std::string call = piece(p.range);
        const std::string swapped = render(Range{p.range.begin, p.token.begin}, self) + p.swapped +
                                    render(Range{p.token.end, p.range.end}, self);
        return "(" + on + " ? " + swapped + " : " + call + ")";
      }
      case MutationOperator::increment: {
        const std::string operand = "(" + piece(p.left) + ")";
        const std::string swapped = p.prefix ? p.swapped + operand : operand + p.swapped;
        return "(" + on + " ? void() : gamebatch_mutant::on(" + std::to_string(p.first_id + 1) +
               ") ? void(" + swapped + ") : void(" + piece(p.range) + "))";
      }
    }
    return piece(p.range);
  }

  std::string_view text_;
  const std::vector<Point>& points_;
};

// The replacement of mutant `k` (0-based) of `point` in a source of its own.
std::string replacement_of(const Point& point, std::size_t k, std::string_view text) {
  switch (point.op) {
    case MutationOperator::relational:
      return kRelational[point.alternatives[k]];
    case MutationOperator::arithmetic:
      return kArithmetic[point.alternatives[k]];
    case MutationOperator::assignment:
      return kAssignment[point.alternatives[k]];
    case MutationOperator::logical:
      return point.spelling == "&&" ? "||" : "&&";
    case MutationOperator::constant: {
      // The literal's suffix kept, so the value has the original's type (the schema casts to it).
      std::size_t digits = 0;
      while (digits < point.spelling.size() &&
             ((point.spelling[digits] >= '0' && point.spelling[digits] <= '9') ||
              point.spelling[digits] == '\''))
        ++digits;
      const std::string value = std::to_string(point.values[k]) + point.spelling.substr(digits);
      return point.values[k] < 0 ? "(" + value + ")" : value;
    }
    case MutationOperator::negated_condition:
      return "!(" +
             std::string(text.substr(point.range.begin, point.range.end - point.range.begin)) + ")";
    case MutationOperator::min_max:
      return point.swapped;
    case MutationOperator::increment:
      return k == 0 ? "(void)0" : point.swapped;
  }
  return "";
}

Range edit_range(const Point& point, std::size_t k) {
  if (point.op == MutationOperator::increment && k == 0)
    return point.range;
  return point.token;
}

struct UnitCloser {
  void operator()(CXTranslationUnitImpl* unit) const {
    libclang().clang_disposeTranslationUnit(unit);
  }
};
struct IndexCloser {
  void operator()(void* index) const { libclang().clang_disposeIndex(index); }
};

}  // namespace

std::string_view short_name(MutationOperator op) {
  constexpr std::string_view names[] = {"ROR", "AOR", "ASR", "LCR", "CRP", "NEG", "MMS", "INC"};
  return names[static_cast<int>(op)];
}

std::string_view description(MutationOperator op) {
  constexpr std::string_view descriptions[] = {"relational operator replaced",
                                               "arithmetic operator replaced",
                                               "compound assignment replaced",
                                               "&& and || swapped",
                                               "constant replaced (0, 1, -1, c + 1, c - 1)",
                                               "condition negated",
                                               "std::min and std::max swapped",
                                               "++ or -- removed or swapped"};
  return descriptions[static_cast<int>(op)];
}

namespace {

using Unit = std::unique_ptr<CXTranslationUnitImpl, UnitCloser>;

// The source parsed with `arguments`; empty with libclang's first error in `error` where it does
// not parse without one.
Unit parse_unit(void* index, const std::string& file, std::string_view text,
                const std::vector<std::string>& arguments, std::string& error) {
  std::vector<const char*> argv;
  for (const std::string& argument : arguments)
    argv.push_back(argument.c_str());
  CXUnsavedFile unsaved{file.c_str(), text.data(), static_cast<unsigned long>(text.size())};
  CXTranslationUnit raw = nullptr;
  const CXErrorCode code = libclang().clang_parseTranslationUnit2(
      index, file.c_str(), argv.data(), static_cast<int>(argv.size()), &unsaved, 1,
      CXTranslationUnit_KeepGoing, &raw);
  Unit unit(raw);
  if (code != CXError_Success || raw == nullptr) {
    error = "libclang could not parse " + file;
    return nullptr;
  }
  for (unsigned k = 0; k < libclang().clang_getNumDiagnostics(raw); ++k) {
    CXDiagnostic diagnostic = libclang().clang_getDiagnostic(raw, k);
    const CXDiagnosticSeverity severity = libclang().clang_getDiagnosticSeverity(diagnostic);
    const std::string message = text_of(libclang().clang_formatDiagnostic(
        diagnostic, libclang().clang_defaultDiagnosticDisplayOptions()));
    libclang().clang_disposeDiagnostic(diagnostic);
    if (severity >= CXDiagnostic_Error) {
      error = "not C++ that libclang accepts: " + message;
      return nullptr;
    }
  }
  return unit;
}

}  // namespace

MutantSchema make_mutant_schema(const std::filesystem::path& path, std::string_view text,
                                const MutationOptions& options) {
  const std::unique_ptr<void, IndexCloser> index(libclang().clang_createIndex(0, 0));
  const std::string file = path.string();
  std::string error = "no language standard to parse " + file + " in";
  Unit unit;
  for (const std::string& standard : options.standards) {
    std::vector<std::string> arguments = options.parser_arguments;
    arguments.push_back(standard);
    arguments.push_back("-I" + (path.has_parent_path() ? path.parent_path().string() : "."));
    if ((unit = parse_unit(index.get(), file, text, arguments, error)))
      break;
  }
  if (!unit)
    throw MutationError(error);
  CXTranslationUnit raw = unit.get();
  const std::set<std::size_t> skip(options.lines_left_out.begin(), options.lines_left_out.end());
  PointFinder finder(raw, text, skip);
  finder.walk(libclang().clang_getTranslationUnitCursor(raw), Context{});
  std::vector<Point>& points = finder.points;
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    if (a.range.begin != b.range.begin)
      return a.range.begin < b.range.begin;
    if (a.range.end != b.range.end)
      return a.range.end > b.range.end;
    return a.rank < b.rank;
  });
  MutantSchema schema;
  int next_id = 1;
  for (Point& point : points) {
    point.first_id = next_id;
    for (std::size_t k = 0; k < point.count(); ++k) {
      const Range edit = edit_range(point, k);
      schema.mutants.push_back({next_id++, point.op, point.line, point.column, edit.begin, edit.end,
                                std::string(text.substr(edit.begin, edit.end - edit.begin)),
                                replacement_of(point, k, text)});
    }
  }
  const Renderer renderer(text, points);
  schema.source = std::string(kPrelude) + "#line 1 \"" + path.filename().string() + "\"\n" +
                  renderer.render(Range{0, text.size()}, -1);
  for (const auto& [why, count] : finder.left_out)
    schema.left_out.push_back(std::to_string(count) + " " + why);
  return schema;
}

std::string single_mutant_source(std::string_view text, const SourceMutant& mutant) {
  std::string source(text);
  source.replace(mutant.begin, mutant.end - mutant.begin, mutant.replacement);
  return source;
}

std::vector<std::size_t> error_lines(std::string_view compiler_output, std::string_view file_name) {
  std::vector<std::size_t> lines;
  const std::string mark = std::string(file_name) + ":";
  std::size_t at = 0;
  while ((at = compiler_output.find(mark, at)) != std::string_view::npos) {
    at += mark.size();
    std::size_t line = 0;
    const auto [end, status] = std::from_chars(
        compiler_output.data() + at, compiler_output.data() + compiler_output.size(), line);
    if (status != std::errc{})
      continue;
    const std::string_view rest =
        compiler_output.substr(static_cast<std::size_t>(end - compiler_output.data()));
    const std::string_view rest_of_line = rest.substr(0, rest.find('\n'));
    const bool error = rest_of_line.find(": error") != std::string_view::npos ||
                       rest_of_line.find("required from here") != std::string_view::npos;
    if (error && std::find(lines.begin(), lines.end(), line) == lines.end())
      lines.push_back(line);
  }
  return lines;
}

}  // namespace gamebatch::io
