# Functions small enough to read in one sitting: none in client/ or common/
# has more than 120 lines from its opening brace to its closing one.
use strict;
use warnings;

use Test::More;

use PgbenchExtTest;

my $max = 120;
my @long;
foreach my $file (glob(source_tree() . '/{client/*,common}/*.c'))
{
	open my $fh, '<', $file or die "could not open $file: $!";
	my ($name, $start);
	my $previous = '';
	while (my $line = <$fh>)
	{
		# a definition: its name at the start of a line, its brace on the next
		$name = $1 if $line =~ /^([A-Za-z_]\w*)\s*\(/ && $previous !~ /;\s*$/;
		$start = $. if $line =~ /^\{/;
		if ($line =~ /^\}/ && defined $start)
		{
			my $length = $. - $start - 1;
			(my $short = $file) =~ s{.*/((?:client|common)/)}{$1};
			push @long, "$short: " . ($name // '?') . "() $length lines" if $length > $max;
			undef $start;
		}
		$previous = $line;
	}
	close $fh;
}
is(join("\n", @long), '', "no function in client/ or common/ over $max lines");

done_testing();
