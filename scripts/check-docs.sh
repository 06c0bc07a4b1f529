#!/usr/bin/env bash
# Checks that the README and docs/ are self-contained: no citation of documents outside the
# repository or of issue numbers, and every relative Markdown link points to a file that exists;
# and that every documented flux command uses the canonical option spellings, not the old ones
# the CLI still accepts as aliases (--switches, -s, --delta, --deltas, --out, -o for a folder).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
files=(README.md $(find docs -name '*.md' | sort))
if grep -nE '\.\./shared|DESIGN(\.md| §)|reference/[a-z]+\.md|[Ii]ssues? ?#?[0-9]' "${files[@]}"; then
  echo "docs cite documents outside the repository or issue numbers (lines above)"
  status=1
fi
for f in "${files[@]}"; do
  dir=$(dirname "$f")
  # [text](target) with a relative target; anchors and URLs are not checked.
  while IFS= read -r target; do
    path=${target%%#*}
    [ -z "$path" ] && continue
    if [ ! -e "$dir/$path" ]; then
      echo "$f: link to missing file $target"
      status=1
    fi
  # Code (fenced blocks, inline spans) is not prose: a lambda's `[](...)` is no link.
  done < <(awk '/^```/ { code = !code; next } !code' "$f" | sed -E 's/`[^`]*`//g' |
    grep -oE '\]\([^)]+\)' | sed -E 's/^\]\((.*)\)$/\1/' | grep -vE '^(https?|mailto):' || true)
done
# Commands are read from fenced and indented code (a line ending in a backslash continues) and inline code
# spans, split at && ; and |. Table rows are skipped: docs/cli.md's vocabulary table names the
# aliases on purpose.
if ! perl -e '
  my $bad = 0;
  sub check {
    my ($where, $text) = @_;
    for my $cmd (split /&&|;|\|/, $text) {
      my ($first, $second) = $cmd =~ /(?:^|[\s\/])flux\s+(\S+)(?:\s+(\S+))?/ or next;
      my $sub = defined $second && $second !~ /^-/ ? "$first $second" : $first;
      my $alias;
      $alias = $1 if $cmd =~ /(?<![\w-])(--switches|--deltas?|--out)(?![\w-])/;
      $alias = "-s" if !$alias && $sub =~ /^matrix / && $cmd =~ /\s-s\s/;
      $alias = "-o (a folder: --out-dir)"
        if !$alias && $sub =~ /^(simulate|bench flux|sweep run)\b/ && $cmd =~ /\s-o\s/;
      if ($alias) { print "$where: flux $sub uses the alias $alias\n"; $bad = 1; }
    }
  }
  for my $file (@ARGV) {
    open(my $fh, "<", $file) or die "$file: $!";
    my ($fence, $pending, $start) = (0, "", 0);
    while (my $line = <$fh>) {
      chomp $line;
      if ($line =~ /^\s*```/) { $fence = !$fence; next; }
      if ($fence || $line =~ /^    /) {  # fenced or indented code
        $start = $. if $pending eq "";
        if ($line =~ s/\\\s*$//) { $pending .= "$line "; next; }
        check("$file:$start", $pending . $line);
        $pending = "";
      } elsif ($line !~ /^\s*\|/) {
        check("$file:$.", $1) while $line =~ /`([^`]+)`/g;
      }
    }
  }
  exit $bad;
' "${files[@]}"; then
  echo "documented commands use old option spellings (lines above); docs/cli.md lists the canonical ones"
  status=1
fi
[ $status -eq 0 ] && echo "docs ok"
exit $status
