# The release's metadata: META.json holds to the PGXN Meta Spec 1.0 (the
# keys it requires, and the form of every key it defines: semantic
# versions, the spec's license names, provides, prereqs, tags, no_index,
# meta-spec), and every place that states the version agrees with
# pgbench_ext.control: META.json, its extension, the top release of
# CHANGELOG.md and debian/changelog.  Debian ships no PGXN validator, so
# the spec's rules are checked here; a table of broken copies shows that
# each rule refuses what it must.  No server is started.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();
my $version = control_version();

# The spec's patterns.  A term names a distribution or an extension; a tag
# may hold spaces; a version is a semantic version (semver.org 2.0.0).
my $num = qr/(?:0|[1-9][0-9]*)/;
my $ident = qr/(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)/;
my $semver = qr/$num\.$num\.$num(?:-$ident(?:\.$ident)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?/;
my $range_one = qr/(?:(?:[=!]=|[<>]=?)\s*)?(?:$semver|0)/;
my @licenses = qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd gfdl_1_2
  gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5
  postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
my %top_keys = map { $_ => 1 } qw(name version abstract maintainer license provides meta-spec
  description generated_by tags no_index prereqs release_status resources);
my @required = qw(name version abstract maintainer license provides meta-spec);

sub is_custom { return $_[0] =~ /^[xX]_./; }
sub is_string { my ($v, $min) = @_; return defined $v && !ref $v && length($v) >= ($min // 1); }
sub is_term { my ($v) = @_; return is_string($v, 2) && $v !~ m{[/\\\s[:cntrl:]]}; }
sub is_version { my ($v) = @_; return is_string($v) && $v =~ /^$semver\z/; }
sub is_path { my ($v) = @_; return is_string($v, 2) && $v !~ m{^/} && $v !~ m{\\}; }

# unknown_keys(WHERE, HASH, KEY...) -> problems for keys not allowed there
sub unknown_keys
{
	my ($where, $hash, @allowed) = @_;
	my %ok = map { $_ => 1 } @allowed;
	return map { "$where: unknown key \"$_\"" } grep { !$ok{$_} && !is_custom($_) } sort keys %$hash;
}

sub check_license
{
	my ($l) = @_;
	my %known = map { $_ => 1 } @licenses;
	return () if is_string($l) && $known{$l};
	if (ref $l eq 'ARRAY')
	{
		return ('license: an empty list') unless @$l;
		return map { "license: \"$_\" is not a license name of the spec" } grep { !$known{$_} } @$l;
	}
	if (ref $l eq 'HASH')
	{
		return ('license: an empty object') unless %$l;
		return map { "license: \"$_\" does not link to its text" }
		  grep { !is_string($l->{$_}) || $l->{$_} !~ m{^[a-z][a-z0-9+.-]*:}i } sort keys %$l;
	}
	return ('license: "' . ($l // 'null') . '" is not a license name of the spec');
}

sub check_maintainer
{
	my ($m) = @_;
	return () if is_string($m);
	return () if ref $m eq 'ARRAY' && @$m && !grep { !is_string($_) } @$m;
	return ('maintainer: neither a name nor a list of names');
}

sub check_provides
{
	my ($p) = @_;
	return ('provides: not an object of extensions') unless ref $p eq 'HASH' && %$p;
	my @problems;
	foreach my $name (sort keys %$p)
	{
		my $e = $p->{$name};
		push @problems, "provides: \"$name\" is not a term" unless is_term($name);
		if (ref $e ne 'HASH')
		{
			push @problems, "provides.$name: not an object";
			next;
		}
		push @problems, unknown_keys("provides.$name", $e, qw(file version abstract docfile docpath));
		push @problems, "provides.$name: no file" unless is_path($e->{file});
		push @problems, "provides.$name: version \"" . ($e->{version} // 'null') . '" is not a semantic version'
		  unless is_version($e->{version});
		push @problems, "provides.$name: empty abstract" if exists $e->{abstract} && !is_string($e->{abstract});
		push @problems, "provides.$name: docfile is not a path" if exists $e->{docfile} && !is_path($e->{docfile});
	}
	return @problems;
}

sub check_prereqs
{
	my ($p) = @_;
	return ('prereqs: not an object of phases') unless ref $p eq 'HASH' && %$p;
	my @problems = unknown_keys('prereqs', $p, qw(configure build test runtime develop));
	foreach my $phase (grep { !is_custom($_) } sort keys %$p)
	{
		my $rels = $p->{$phase};
		if (ref $rels ne 'HASH' || !%$rels)
		{
			push @problems, "prereqs.$phase: not an object of relationships";
			next;
		}
		push @problems, unknown_keys("prereqs.$phase", $rels, qw(requires recommends suggests conflicts));
		foreach my $rel (grep { !is_custom($_) } sort keys %$rels)
		{
			my $deps = $rels->{$rel};
			if (ref $deps ne 'HASH')
			{
				push @problems, "prereqs.$phase.$rel: not an object of prerequisites";
				next;
			}
			foreach my $dep (sort keys %$deps)
			{
				my $r = $deps->{$dep};
				push @problems, "prereqs.$phase.$rel: \"$dep\" is not a term" unless is_term($dep);
				push @problems, "prereqs.$phase.$rel.$dep: \"" . ($r // 'null') . '" is not a version range'
				  unless defined $r && !ref $r && $r =~ /^$range_one(?:,\s*$range_one)*\z/;
			}
		}
	}
	return @problems;
}

sub check_tags
{
	my ($t) = @_;
	return ('tags: not a list of tags') unless ref $t eq 'ARRAY' && @$t;
	return map { "tags: \"$_\" is not a tag (2 to 255 characters, no slash, backslash or control character)" }
	  grep { !is_string($_, 2) || length($_) > 255 || m{[/\\[:cntrl:]]} } @$t;
}

sub check_no_index
{
	my ($n) = @_;
	return ('no_index: names neither a file nor a directory')
	  unless ref $n eq 'HASH' && (exists $n->{file} || exists $n->{directory});
	my @problems = unknown_keys('no_index', $n, qw(file directory));
	foreach my $kind (grep { exists $n->{$_} } qw(file directory))
	{
		my @paths = ref $n->{$kind} eq 'ARRAY' ? @{ $n->{$kind} } : ($n->{$kind});
		push @problems, "no_index.$kind: an empty list" unless @paths;
		push @problems, map { "no_index.$kind: \"" . ($_ // 'null') . '" is not a relative path' }
		  grep { !is_path($_) } @paths;
	}
	return @problems;
}

sub check_meta_spec
{
	my ($s) = @_;
	return ('meta-spec: not an object') unless ref $s eq 'HASH';
	my @problems = unknown_keys('meta-spec', $s, qw(version url));
	push @problems, 'meta-spec: version "' . ($s->{version} // 'null') . '" is not 1.0.x'
	  unless is_string($s->{version}) && $s->{version} =~ /^1\.0\.[0-9]+\z/;
	push @problems, "meta-spec: url is not the spec's"
	  if exists $s->{url} && !grep { ($s->{url} // '') eq $_ } qw(https://pgxn.org/meta/spec.txt http://pgxn.org/meta/spec.txt);
	return @problems;
}

# meta_problems(META) -> what in the decoded META.json breaks the spec
sub meta_problems
{
	my ($m) = @_;
	return ('not a JSON object') unless ref $m eq 'HASH';
	my @problems = unknown_keys('META.json', $m, keys %top_keys);
	push @problems, map { "META.json: no \"$_\"" } grep { !exists $m->{$_} } @required;
	push @problems, 'name: "' . ($m->{name} // 'null') . '" is not a term' if exists $m->{name} && !is_term($m->{name});
	push @problems, 'version: "' . ($m->{version} // 'null') . '" is not a semantic version'
	  if exists $m->{version} && !is_version($m->{version});
	foreach my $key (qw(abstract description generated_by))
	{
		push @problems, "$key: empty" if exists $m->{$key} && !is_string($m->{$key});
	}
	push @problems, 'release_status: "' . ($m->{release_status} // 'null') . '" is not stable, testing or unstable'
	  if exists $m->{release_status} && !grep { ($m->{release_status} // '') eq $_ } qw(stable testing unstable);
	push @problems, check_maintainer($m->{maintainer}) if exists $m->{maintainer};
	push @problems, check_license($m->{license}) if exists $m->{license};
	push @problems, check_provides($m->{provides}) if exists $m->{provides};
	push @problems, check_prereqs($m->{prereqs}) if exists $m->{prereqs};
	push @problems, check_tags($m->{tags}) if exists $m->{tags};
	push @problems, check_no_index($m->{no_index}) if exists $m->{no_index};
	push @problems, check_meta_spec($m->{'meta-spec'}) if exists $m->{'meta-spec'};
	push @problems, 'resources: not an object' if exists $m->{resources} && ref $m->{resources} ne 'HASH';
	return @problems;
}

my $meta = read_json("$top/META.json");
my @problems = meta_problems($meta);
is(scalar(@problems), 0, 'META.json holds to the PGXN Meta Spec 1.0') or diag join("\n", @problems);

# The project's own rules beyond the spec's.
is($meta->{version}, $version, 'META.json: the version of pgbench_ext.control');
my $ext = $meta->{provides}{pgbench_ext} // {};
is($ext->{version}, $version, 'META.json: the extension pgbench_ext of that version');
ok(-f "$top/$ext->{$_}", "META.json: provides.pgbench_ext.$_ ($ext->{$_}) is in the tree") foreach qw(file docfile);
is($meta->{license}, 'postgresql', 'META.json: the PostgreSQL license');
like(slurp_file("$top/LICENSE"), qr/\APostgreSQL Licence\n/, 'LICENSE is the PostgreSQL licence META.json names');
is($meta->{prereqs}{runtime}{requires}{PostgreSQL}, '13.0.0', 'META.json: PostgreSQL 13 or later to run');
is($meta->{release_status}, 'stable', 'META.json: a stable release');
ok(!exists $meta->{resources}, 'META.json: no resources (no address of the project to give)');

# The other places a release states its version.
my ($changelog_top) = slurp_file("$top/CHANGELOG.md") =~ /^## \[?([^\]\s]+)\]? /m;
is($changelog_top, $version, 'CHANGELOG.md: the top release is the version of pgbench_ext.control');
my ($debian_version) = slurp_file("$top/debian/changelog") =~ /\A\S+ \(([^)]+)\)/;
like($debian_version // '', qr/^\Q$version\E(-[0-9]+)?$/, 'debian/changelog: the version of pgbench_ext.control');

# Each rule refuses what it must: [ what is broken, the change, the problem ]
my @broken = (
	[ 'no maintainer', sub { delete $_[0]{maintainer} }, qr/no "maintainer"/ ],
	[ 'no meta-spec', sub { delete $_[0]{'meta-spec'} }, qr/no "meta-spec"/ ],
	[ 'a version of two numbers', sub { $_[0]{version} = '1.0' }, qr/^version: "1\.0" is not a semantic/ ],
	[ 'a leading zero', sub { $_[0]{version} = '1.01.0' }, qr/^version: "1\.01\.0"/ ],
	[ 'a name with a space', sub { $_[0]{name} = 'pgbench ext' }, qr/^name: "pgbench ext" is not a term/ ],
	[ 'a license not in the spec', sub { $_[0]{license} = 'PostgreSQL' }, qr/^license: "PostgreSQL" is not a license name/ ],
	[ 'a license object without a link', sub { $_[0]{license} = { PostgreSQL => 'the licence' } }, qr/does not link/ ],
	[ 'an unknown key', sub { $_[0]{homepage} = 'x' }, qr/unknown key "homepage"/ ],
	[ 'no extension provided', sub { $_[0]{provides} = {} }, qr/^provides: not an object/ ],
	[ 'an extension without version', sub { delete $_[0]{provides}{pgbench_ext}{version} }, qr/^provides\.pgbench_ext: version "null"/ ],
	[ 'an extension without file', sub { delete $_[0]{provides}{pgbench_ext}{file} }, qr/^provides\.pgbench_ext: no file/ ],
	[ 'an unknown phase', sub { $_[0]{prereqs}{install} = { requires => {} } }, qr/unknown key "install"/ ],
	[ 'a version range of two numbers', sub { $_[0]{prereqs}{runtime}{requires}{PostgreSQL} = '13.0' }, qr/"13\.0" is not a version range/ ],
	[ 'a tag with a slash', sub { $_[0]{tags} = ['a/b testing'] }, qr/^tags: "a\/b testing"/ ],
	[ 'an unknown release status', sub { $_[0]{release_status} = 'final' }, qr/^release_status: "final"/ ],
	[ 'a meta-spec of version 2', sub { $_[0]{'meta-spec'}{version} = '2.0.0' }, qr/^meta-spec: version "2\.0\.0"/ ],
	[ 'an absolute path in no_index', sub { $_[0]{no_index} = { directory => ['/test'] } }, qr/"\/test" is not a relative path/ ],
);
my $json = JSON::PP->new->canonical;
foreach my $case (@broken)
{
	my ($what, $change, $expect) = @$case;
	my $copy = $json->decode($json->encode($meta));
	$change->($copy);
	my @found = meta_problems($copy);
	ok((grep { /$expect/ } @found), "a META.json with $what is refused") or diag join("\n", @found);
}
ok(scalar(meta_problems($json->decode('{}'))) >= scalar(@required), 'an empty META.json lacks every required key');
is(scalar(meta_problems($json->decode('{"x_note": 1, "name": "pgbench_ext", "version": "1.0.0-rc.1+b.2",'
			  . ' "abstract": "a", "maintainer": ["a", "b"], "license": ["postgresql", "mit"],'
			  . ' "provides": {"e1": {"file": "e1.sql", "version": "0.0.1"}}, "meta-spec": {"version": "1.0.2"},'
			  . ' "prereqs": {"test": {"recommends": {"pgTAP": 0}}, "runtime": {"requires": {"PostgreSQL": ">= 13.0.0, < 19.0.0"}}}}'))),
	0, "the spec's other forms (lists, pre-release versions, ranges, custom keys) are accepted");

done_testing();
