# The statistics of common/ compiled into the server module can be
# cancelled without leaking (common/stats_host.h): their objects, as the
# top Makefile builds them for the module, call no allocator of libc's
# (a cancel's longjmp would leak malloc'd memory; palloc'd memory goes
# with the statement), and every file with a loop that grows with its
# input reaches CHECK_FOR_INTERRUPTS() (ProcessInterrupts); the sources
# too, so that a stale object cannot hide a new malloc().  The client's
# copies of the same files call malloc and never the backend.
use strict;
use warnings;

use File::Basename qw(basename);
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();
my $libc_alloc = qr/^(?:malloc|calloc|realloc|free|strdup|strndup|reallocarray)$/;

# the undefined symbols of each object of common/ and of the client's top
# folder (the same sources compiled for the client), read by one nm
my %undefined;
foreach (split /\n/, `nm -A $top/common/*.o $top/client/*.o`)
{
	push @{ $undefined{$1} }, $2 if /^(.*?\.o):\s+U\s+(\S+)$/;
}

# the undefined symbols of an object
sub undefined
{
	my ($o) = @_;
	return @{ $undefined{$o} // [] };
}

my @objects = glob("$top/common/*.o");
ok(@objects > 10, scalar(@objects) . ' objects of common/ built for the module (make has built it)');
my @alloc;
foreach my $o (@objects)
{
	push @alloc, map { basename($o) . ": $_" } grep { /$libc_alloc/ } undefined($o);
}
is(join(', ', @alloc), '', 'the module\'s common/ objects call no allocator of libc');

# the files whose loops grow with their input (the sorts, selections,
# rank distributions, shuffles, boundaries and looks)
foreach my $file (qw(stats stats_dist stats_rank stats_changepoint stats_seqbounds stats_seqbudget))
{
	ok((grep { $_ eq 'ProcessInterrupts' } undefined("$top/common/$file.o")),
		"common/$file.o checks for interrupts in the module");
	ok(!(grep { $_ eq 'ProcessInterrupts' } undefined("$top/client/$file.o")),
		"client/$file.o (the same source) does not");
}
ok((grep { $_ eq 'malloc' } map { undefined($_) } glob("$top/client/stats*.o")),
	'the client\'s copies allocate with malloc');

my @calls;
foreach my $src (glob("$top/common/*.c"))
{
	my $code = c_code_of($src);
	while ($code =~ /(?<![\w.>])(malloc|calloc|realloc|free|strdup)\s*\(/g)
	{
		push @calls, basename($src) . ": $1()";
	}
}
is(join(', ', @calls), '', 'no source of common/ calls libc\'s allocator but through stats_host.h');

done_testing();
