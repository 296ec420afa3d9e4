# Turns one `gamebatch ... --help` text into roff for gamebatch(1); run by help_to_man.sh.
#   awk -v mode=MODE [-v skip_footer=1] -f help_to_roff.awk HELP.txt
# MODE: name | synopsis | description | command | exit | footer | subcommands (which part to
# print). Plain POSIX awk: Debian's default awk is mawk.
#
# CLI11 lays a help text out as: description lines; "Usage: ..."; blocks ("Positionals:",
# "Options:", option groups, "Subcommands:") of items "  NAMES TYPE..." whose description starts
# at column 31 (on the next line when the names are too long); then the footer.

BEGIN { paragraph_start = "^(Exit status:|Examples?:|[A-Z][A-Za-z ]*:$)" }

{ line[++n] = $0 }

function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  gsub(/[|]/, "|\\:", s)  # value lists (a|b|c) may break after a bar
  if (s ~ /^[.']/)
    s = "\\&" s
  return s
}

function trim(s) {
  sub(/^ +/, "", s)
  sub(/ +$/, "", s)
  return s
}

# "Options:" and the like; a footer line ending in ':' is not one unless an option follows.
function is_heading(i) {
  if (line[i] !~ /^[^ ].*:$/)
    return 0
  return line[i] == "Positionals:" || line[i] == "Options:" || line[i] == "Subcommands:" ||
         line[i + 1] ~ /^  -/
}

# Splits an item line into item_head and item_text (either may be empty).
function split_item(l,   p) {
  l = substr(l, 3)
  p = index(l, "  ")
  item_head = l
  item_text = ""
  if (p > 0) {
    item_head = substr(l, 1, p - 1)
    item_text = trim(substr(l, p))
  } else if (length(l) >= 29 && substr(l, 28, 1) == " " && substr(l, 27, 1) != " " &&
             substr(l, 29) !~ /^(REQUIRED|Excludes:|Needs:|\.\.\.|[A-Z0-9_\/]+([ :=]|$))/) {
    # A 27-character head: CLI11's padding left a single space before the description.
    item_head = substr(l, 1, 27)
    item_text = substr(l, 29)
  }
}

# The head "-p,--problem GAME:{a,b} REQUIRED" into names, type, values, default, required, excludes.
function parse_head(k, head,   rest) {
  names[k] = head
  sub(/ .*/, "", names[k])
  rest = substr(head, length(names[k]) + 1)
  required[k] = sub(/ REQUIRED/, "", rest)
  excludes[k] = ""
  if (match(rest, / (Excludes|Needs): .*/)) {
    excludes[k] = substr(rest, RSTART + 1)
    rest = substr(rest, 1, RSTART - 1)
  }
  default_value[k] = ""
  if (match(rest, /=[^ ]*$/)) {
    default_value[k] = substr(rest, RSTART + 1)
    rest = substr(rest, 1, RSTART - 1)
  }
  values[k] = ""
  if (match(rest, /:[{][^}]*[}]/)) {
    values[k] = substr(rest, RSTART + 2, RLENGTH - 3)
    rest = substr(rest, 1, RSTART - 1) substr(rest, RSTART + RLENGTH)
  }
  sub(/:.*/, "", rest)  # other validators ("INT in [0 - 65536]"): the description says enough
  type_name[k] = trim(rest)
}

function parse(   i, l, k) {
  for (i = 1; i <= n && line[i] !~ /^Usage: /; i++)
    desc[++ndesc] = line[i]
  usage = substr(line[i], 8)
  for (i++; i <= n; i++) {
    l = line[i]
    if (l == "")
      continue
    if (is_heading(i)) {
      block_title[++nblocks] = substr(l, 1, length(l) - 1)
      block_first[nblocks] = nitems + 1
    } else if (l ~ /^  [^ ]/ && nblocks > 0) {
      k = ++nitems
      item_block[k] = nblocks
      split_item(l)
      parse_head(k, item_head)
      item_lines[k] = 0
      if (item_text != "")
        item_line[k, ++item_lines[k]] = item_text
    } else if (l ~ /^                              / && nitems > 0) {
      item_line[nitems, ++item_lines[nitems]] = substr(l, 31)
    } else {
      break
    }
  }
  for (; i <= n; i++)
    footer[++nfooter] = line[i]
  while (nfooter > 0 && footer[nfooter] == "")
    nfooter--
}

# "gamebatch cache trim [OPTIONS] FILE" in roff: words bold, metavariables italic.
function usage_roff(u,   w, nw, k, out, word, pre, post) {
  nw = split(u, w, " ")
  for (k = 1; k <= nw; k++) {
    word = w[k]
    pre = ""
    post = ""
    if (word ~ /^\[/) { pre = "["; sub(/^\[/, "", word) }
    if (word ~ /\]$/) { post = "]"; sub(/\]$/, "", word) }
    if (word ~ /\.\.\.$/) { post = "..." post; sub(/\.\.\.$/, "", word) }
    word = (word ~ /^[A-Z]/) ? "\\fI" esc(word) "\\fR" : "\\fB" esc(word) "\\fR"
    out = out (k > 1 ? " " : "") pre word post
  }
  return out
}

# Free text (descriptions, footers). Indented "NAME  text" lines are definitions, other indented
# lines literal; at paragraph level ("pp") an "Exit status:", "Example:" or heading line ("Games:")
# starts a paragraph.
# ctx "pp": at paragraph level; "tp": inside an item's body. Returns the state it ends in:
# "text", or "closed" when a list or literal block ended it (text after it needs .PP or .IP).
function render(arr, from, to, ctx,   i, l, state, name, text, width, w) {
  width = 0
  for (i = from; i <= to; i++) {
    if (arr[i] ~ /^ +[A-Za-z0-9_.-]+  +[^ ]/) {
      w = arr[i]
      sub(/^ +/, "", w)
      sub(/ .*/, "", w)
      if (length(w) > width)
        width = length(w)
    }
  }
  state = "text"
  for (i = from; i <= to; i++) {
    l = arr[i]
    if (l ~ /^ +[A-Za-z0-9_.-]+  +[^ ]/) {
      if (state != "definition") {
        close_block(state, ctx)
        if (ctx == "tp")
          print ".RS"
      }
      l = trim(l)
      name = l
      sub(/ .*/, "", name)
      text = trim(substr(l, length(name) + 1))
      print ".TP " (width + 2) "\n\\fB" esc(name) "\\fR\n" esc(text)
      state = "definition"
    } else if (l ~ /^ /) {
      if (state != "literal") {
        close_block(state, ctx)
        print ".RS 4\n.nf"
      }
      sub(/^  /, "", l)
      print esc(l)
      state = "literal"
    } else {
      if (state == "definition" || state == "literal") {
        close_block(state, ctx)
        print (ctx == "pp" ? ".PP" : ".IP")
      } else if (l == "" || (ctx == "pp" && i > from && l ~ paragraph_start)) {
        print (ctx == "pp" ? ".PP" : ".IP")
      }
      if (l != "")
        print esc(l)
      state = "text"
    }
  }
  close_block(state, ctx)
  return (state == "text") ? "text" : "closed"
}

function close_block(state, ctx) {
  if (state == "definition" && ctx == "tp")
    print ".RE"
  else if (state == "literal")
    print ".fi\n.RE"
}

function tag(k, bold_names,   parts, np, j, out, name) {
  np = split(names[k], parts, ",")
  for (j = 1; j <= np; j++) {
    name = parts[j]
    out = out (j > 1 ? ", " : "")
    out = out ((bold_names || name ~ /^-/) ? "\\fB" esc(name) "\\fR" : "\\fI" esc(name) "\\fR")
  }
  if (type_name[k] == "...")
    out = out "..."
  else if (type_name[k] != "")
    out = out " \\fI" esc(type_name[k]) "\\fR"
  return out
}

function item_text_of(k,   j, s) {
  for (j = 1; j <= item_lines[k]; j++)
    s = s " " item_line[k, j]
  return s
}

# The notes CLI11 prints in the head (REQUIRED, {a,b}, =default, Excludes:), as sentences.
function notes(k,   text, vals, nv, j, listed, out) {
  text = item_text_of(k)
  if (required[k])
    out = out " Required."
  if (values[k] != "") {
    nv = split(values[k], vals, ",")
    listed = 1
    for (j = 1; j <= nv; j++) {
      if (index(text, vals[j]) == 0)
        listed = 0
    }
    if (!listed) {
      gsub(/,/, ", ", values[k])
      out = out " One of: " values[k] "."
    }
  }
  if (default_value[k] != "" && tolower(text) !~ /default/)
    out = out " Default: " default_value[k] "."
  if (excludes[k] != "") {
    sub(/^Excludes: /, "not together with ", excludes[k])
    sub(/^Needs: /, "only with ", excludes[k])
    out = out " " toupper(substr(excludes[k], 1, 1)) substr(excludes[k], 2) "."
  }
  return trim(out)
}

function render_item(k, bold_names,   body, j, last, state, extra) {
  print ".TP\n" tag(k, bold_names)
  for (j = 1; j <= item_lines[k]; j++)
    body[j] = item_line[k, j]
  extra = notes(k)
  # Descriptions are phrases without a full stop; the notes are sentences after them.
  last = item_lines[k]
  if (extra != "" && last > 0 && body[last] ~ /^[^ ]/ && body[last] !~ /[.:]$/)
    body[last] = body[last] "."
  state = render(body, 1, item_lines[k], "tp")
  if (extra != "") {
    if (state != "text")
      print ".IP"
    print esc(extra)
  }
}

# Blocks as lead-in titles and item lists; "-h,--help" only where keep_help is set.
function render_blocks(keep_help,   b, k, last, shown, title) {
  for (b = 1; b <= nblocks; b++) {
    last = (b < nblocks) ? block_first[b + 1] - 1 : nitems
    shown = 0
    for (k = block_first[b]; k <= last; k++) {
      if (names[k] == "-h,--help" && !keep_help)
        continue
      if (!shown) {
        title = block_title[b]
        if (title == "Positionals")
          title = "Arguments"
        print ".PP\n\\fB" esc(title) ":\\fR"
        shown = 1
      }
      render_item(k, block_title[b] == "Subcommands")
    }
  }
}

# The footer's "Exit status: 0 ..., 1 ..., 2 ...." sentence, cut out of footer_rest.
function exit_sentence(   s, i, rest) {
  for (i = 1; i <= nfooter; i++)
    s = s (i > 1 ? " " : "") footer[i]
  i = index(s, "Exit status: ")
  if (i == 0)
    return ""
  rest = substr(s, i + 13)
  if (!match(rest, /\.( |$)/))
    return ""
  footer_rest = trim(substr(s, 1, i - 1) substr(rest, RSTART + RLENGTH))
  return substr(rest, 1, RSTART - 1)
}

END {
  parse()
  if (mode == "name") {
    name = desc[1]
    sub(/^gamebatch: /, "", name)
    sub(/\.$/, "", name)
    print "gamebatch \\- " esc(name)
  } else if (mode == "synopsis") {
    print usage_roff(usage)
  } else if (mode == "subcommands") {
    for (k = 1; k <= nitems; k++) {
      if (block_title[item_block[k]] == "Subcommands")
        print names[k]
    }
  } else if (mode == "footer") {
    for (i = 1; i <= nfooter; i++)
      print footer[i]
  } else if (mode == "exit") {
    sentence = exit_sentence()
    if (sentence == "") {
      print "help_to_roff.awk: no 'Exit status: ...' sentence in the help's footer" > "/dev/stderr"
      exit 1
    }
    gsub(/, [0-9]+ /, "\n&", sentence)
    count = split(sentence, statuses, "\n")
    for (i = 1; i <= count; i++) {
      s = statuses[i]
      sub(/^, /, "", s)
      status = s
      sub(/ .*/, "", status)
      print ".TP\n.B " status "\n" esc(substr(s, length(status) + 2)) "."
    }
  } else if (mode == "description") {
    render(desc, 1, ndesc, "pp")
    render_blocks(1)
    exit_sentence()
    if (footer_rest != "")
      print ".PP\n" esc(footer_rest)
  } else if (mode == "command") {
    render(desc, 1, ndesc, "pp")
    print ".PP\n" usage_roff(usage)
    render_blocks(0)
    if (nfooter > 0 && !skip_footer) {
      print ".PP"
      render(footer, 1, nfooter, "pp")
    }
  } else {
    print "help_to_roff.awk: unknown mode '" mode "'" > "/dev/stderr"
    exit 2
  }
}
