# The maps read true: every relative link of README.md and docs/*.md names
# a file of the tree and, with #anchor, a heading of it; every test script
# (NNN_name.pl), and every path of the tree (client/, common/, extension/,
# test/, tools/, bench/, docs/, sql/, expected/) that README.md, docs/, the
# CI script and the code's comments name exists.
use strict;
use warnings;

use File::Find;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();

# GitHub's anchor of a heading: lower case, punctuation but "-" and "_"
# dropped, spaces made "-"
sub anchors_of
{
	my ($file) = @_;
	my (%anchors, $fence);
	foreach my $line (split /\n/, slurp_file($file))
	{
		$fence = !$fence if $line =~ /^```/;
		next if $fence || $line !~ /^#+\s+(.*?)\s*$/;
		my $a = lc $1;
		$a =~ s/[^\w\- ]//g;
		$a =~ s/ /-/g;
		$anchors{$a} = 1;
	}
	return \%anchors;
}

my @docs = ("$top/README.md", glob("$top/docs/*.md"));
my @bad_links;
foreach my $doc (@docs)
{
	(my $dir = $doc) =~ s{/[^/]+$}{};
	my $text = slurp_file($doc);
	$text =~ s/^```.*?^```//msg;
	while ($text =~ /\]\(([^)\s]+)\)/g)
	{
		my $link = $1;
		next if $link =~ m{^[a-z]+:};
		my ($path, $anchor) = split /#/, $link, 2;
		my $target = $path eq '' ? $doc : "$dir/$path";
		(my $name = $doc) =~ s{^\Q$top\E/}{};
		if (!-e $target)
		{
			push @bad_links, "$name: $link (no such file)";
		}
		elsif (defined $anchor && $target =~ /\.md$/ && !anchors_of($target)->{$anchor})
		{
			push @bad_links, "$name: $link (no such heading)";
		}
	}
}
is(join("\n", @bad_links), '', 'every relative link of README.md and docs/ names a file and a heading that exist');

# the files whose words may name tests and paths: docs, the CI script, code
my @texts = (@docs, "$top/.ci/run");
find(sub { push @texts, $File::Find::name if /\.(?:c|h|pl|pm|sh|mk|sql)$/ || $_ eq 'Makefile' },
	map { "$top/$_" } qw(client common extension test tools bench));
push @texts, glob("$top/tools/*");
my (%tests, @bad_names);
$tests{$_} = 1 foreach map { m{/([^/]+)$} } glob("$top/test/t/*.pl");
foreach my $file (@texts)
{
	next unless -f $file;
	(my $name = $file) =~ s{^\Q$top\E/}{};
	next if $name =~ m{^test/fixtures/};
	my $text = slurp_file($file);
	# PostgreSQL's own headers and tests are not this tree's
	$text =~ s/^\s*#\s*include\s.*$//mg;
	$text =~ s{src/bin/\w+/t/\d{3}_\w+\.pl}{}g;
	while ($text =~ /\b(\d{3}_[a-z0-9_]+\.pl)\b/g)
	{
		push @bad_names, "$name: $1" unless $tests{$1};
	}
	# "test 046", "tests 074 and 075": a test of that number
	while ($text =~ /\b[Tt]ests? ((?:\d{3}(?:,? (?:and |or )?|\b))+)(?!\s*(?:s|ms|min|seconds?|minutes?)\b)/g)
	{
		foreach my $n ($1 =~ /(\d{3})/g)
		{
			push @bad_names, "$name: test $n" unless grep { /^${n}_/ } keys %tests;
		}
	}
	while ($text =~ m{(?<![\w/.\$-])((?:client|common|extension|test|tools|bench|docs|sql|expected)/[\w./*-]*)}g)
	{
		(my $path = $1) =~ s/[.-]+$//;
		# patterns (test/t/1NN_, sql/NAME.sql, test/unit/test_X) are not paths
		next if $path =~ /[*]|\.\.\.|[A-Z]{1,}|NN|_$|\/\d*$|-$/ || $path =~ m{^test/(?:bin|tmp_check)};
		push @bad_names, "$name: $path" unless -e "$top/$path" || -e "$top/$path.c";
	}
}
my %seen;
is(join("\n", grep { !$seen{$_}++ } @bad_names), '', 'every test script and path of the tree that docs, CI and code name exists');

done_testing();
