# testsuite/lang/corpus-exp.tcl -- runs one of SystemTap's run-test .exp
# files (the corpus's systemtap.maps, .printf, .string) the way DejaGnu
# would, with tapc in stap's place, and writes down each verdict.
#
# The .exp files are Tcl: rather than guess their forms from the text, this
# file defines the DejaGnu, Expect and SystemTap-testsuite commands they
# call (pass, fail, spawn, expect, stap_run2, stap_run_exact,
# stap_run_binary, run_cmd_2way, is, ...) and sources the .exp.  Each
# command here is written from what the .exp files rely on, not from the
# library itself:
#   stap_run2 FILE ARGS / stap_run3 NAME FILE ARGS / stap_run_exact NAME
#     FILE ARGS: run `stap FILE ARGS` with Tcl's exec (so the compared text
#     is stdout, then anything on stderr, and a non-zero exit status with a
#     silent stderr adds "child process exited abnormally"), and compare it
#     line by line with ::result_string; stap_run2/3 also need the same
#     number of lines, stap_run_exact only the lines printed.
#   stap_run_binary FILE: `stap FILE | hexdump` eight bytes a line, equal to
#     ::result_string.
#   spawn/expect: the command runs to its end first (output and errors
#     merged, "\r\n" line ends as on a terminal), then the patterns are
#     matched against that text in the order Expect would: the first
#     clause whose pattern matches anywhere in what is left wins, and
#     what it matched, and everything before, is consumed; exp_continue
#     matches again; nothing left to match runs the eof clause (the
#     timeout clause if the run was stopped by its time limit).
#   run_cmd_2way CMD OUT ERR: sh -c CMD, its stdout and stderr apart, the
#     exit status returned.
# `stap` is found on PATH: testsuite/lang/corpus-shim/stap runs tapc on the
# user target and logs each script it is given, which is how a verdict is
# tied to the scripts that produced it.
#
# Usage: tclsh corpus-exp.tcl SRCDIR SUBDIR EXPFILE RESULTS RUNLOG
#   SRCDIR  the corpus's systemtap/ folder ($srcdir in the .exp)
#   SUBDIR  the folder of the .exp ($subdir)
#   RESULTS file to append one line per verdict:
#           VERDICT<TAB>SCRIPTS<TAB>TEST NAME<TAB>DETAIL
#           VERDICT: PASS, FAIL, UNTESTED, UNSUPPORTED or ERROR (the .exp
#           stopped on a Tcl error: DETAIL says which); SCRIPTS: the
#           scripts run since the previous verdict, space-separated, or
#           those of the previous verdict when none ran since; before any
#           run, the .exp's own NAME.stp if there is one, else NAME.exp
#           (also what a `stap -e` run is logged as).  A FAIL before any
#           stap run is written UNTESTED: nothing of tapc was compared.
#   RUNLOG  the file the shim appends script names to
# Must not: run anything but what the .exp asks for.

lassign $argv srcdir subdir expfile results_file runlog
set env(CORPUS_RUNLOG) $runlog
set env(CORPUS_EXP) [file tail $expfile]
set tool systemtap
set verbose 0

# --- verdicts ------------------------------------------------------------

# The scripts the next verdict belongs to: those the shim logged since the
# last verdict, else the last verdict's.
set runlog_seen 0
set verdict_scripts {}
proc current_scripts {} {
	global runlog runlog_seen verdict_scripts
	set names {}
	if {[file exists $runlog]} {
		set f [open $runlog r]
		set lines [split [string trimright [read $f] "\n"] "\n"]
		close $f
		set names [lrange $lines $runlog_seen end]
		set runlog_seen [llength $lines]
	}
	if {[llength $names] > 0} {
		set verdict_scripts [lsort -unique $names]
	}
	if {[llength $verdict_scripts] > 0} {
		return [join $verdict_scripts " "]
	}
	# nothing ran yet: the .exp's own script, else the .exp
	global srcdir subdir expfile
	set own "[file rootname [file tail $expfile]].stp"
	if {[file exists [file join $srcdir $subdir $own]]} { return $own }
	return [file tail $expfile]
}

proc record {verdict name {detail ""}} {
	global results_file runlog_seen
	set scripts [current_scripts]
	# a failure before stap ever ran compared nothing of tapc's
	if {$verdict eq "FAIL" && $runlog_seen == 0} {
		set verdict UNTESTED
		set detail "failed before running stap: $detail"
	}
	set f [open $results_file a]
	puts $f [join [list $verdict $scripts \
		[string map {"\t" " " "\n" " "} $name] \
		[string map {"\t" " " "\n" "\\n" "\r" "\\r"} $detail]] "\t"]
	close $f
}

# The detail of the next fail, set by the comparisons below.
set fail_detail ""
proc pass {name} { record PASS $name }
proc fail {name} {
	global fail_detail last_output
	# a failure the .exp judged itself: show what the run printed
	if {$fail_detail eq ""} {
		set fail_detail "output: [string range $last_output 0 199]"
	}
	record FAIL $name $fail_detail
	set fail_detail ""
}
proc untested {name} { record UNTESTED $name }
proc unsupported {name} { record UNSUPPORTED $name }
proc unresolved {name} { record UNTESTED $name }
proc xfail {name} { record FAIL "$name (xfail)" }
proc kfail {args} { record FAIL [lindex $args end] }
proc setup_kfail {args} {}
proc setup_xfail {args} {}
proc perror {msg} { record ERROR "perror" $msg }
proc send_log {args} { puts -nonewline stderr [lindex $args end] }
proc send_user {args} { puts -nonewline stderr [lindex $args end] }
proc verbose {args} {}
proc note {args} {}
proc warning {args} { puts stderr "warning: [lindex $args end]" }

# --- what SystemTap's testsuite library provides -------------------------

# Tests run as installed ones, on the default runtime only (tapc has no
# dyninst or bpf runtime); stap's board arguments are none.
proc installtest_p {} { return 1 }
proc get_runtime_list {} { return [list ""] }
proc stap_get_board_args {} { return "" }
proc arch_compile_flags {} { return 1 }
# the kernel has what process probes need (uprobes; utrace is long gone)
proc utrace_p {} { return 1 }

# The text Tcl's exec leaves for a command: stdout, stderr, exit status.
set last_output ""
proc exec_text {cmd} {
	global last_output
	catch {eval exec $cmd} res
	set last_output $res
	return $res
}

# compare_lines NAME TEXT COUNT: TEXT line by line against ::result_string;
# COUNT: whether the number of lines must also match.
proc compare_lines {name text count} {
	global fail_detail
	set want [split $::result_string "\n"]
	set n 0
	foreach line [split $text "\n"] {
		set w [lindex $want $n]
		if {$n >= [llength $want] || ![string equal $line $w]} {
			set fail_detail "line [expr {$n + 1}]: expected \"$w\", got \"$line\""
			fail $name
			return
		}
		incr n
	}
	if {$count && $n != [llength $want]} {
		set fail_detail "$n lines, expected [llength $want]; next expected \"[lindex $want $n]\""
		fail $name
		return
	}
	pass $name
}

proc stap_run3 {name file args} {
	compare_lines $name [exec_text [concat stap [list $file] $args]] 1
}
proc stap_run2 {file args} {
	stap_run3 [regsub {.*/systemtap/} $file ""] $file {*}$args
}
proc stap_run_exact {name file args} {
	compare_lines $name [exec_text [concat stap $args [list $file]]] 0
}
proc stap_run_binary {file args} {
	global fail_detail
	set name [regsub {.*/systemtap/} $file ""]
	set got [exec_text [concat stap $args [list $file] \
		[list | hexdump -ve {8/1 "%02x " "\n"}]]]
	if {[string equal $got $::result_string]} {
		pass $name
	} else {
		set fail_detail "hexdump: expected \"$::result_string\", got \"$got\""
		fail $name
	}
}
# stap_run drives a module through a begin/end protocol with load and
# unload functions of SystemTap's kernel tests: not for the user target.
proc stap_run {name args} {
	global fail_detail
	set fail_detail "stap_run: a load-function test of SystemTap's kernel suite"
	unsupported $name
}

proc run_cmd_2way {cmd outvar errvar} {
	upvar 1 $outvar out $errvar err
	set o [file tempfile opath]
	set e [file tempfile epath]
	close $o
	close $e
	set status 0
	if {[catch {exec sh -c $cmd >$opath 2>$epath} msg opts]} {
		set code [dict get $opts -errorcode]
		if {[lindex $code 0] eq "CHILDSTATUS"} {
			set status [lindex $code 2]
		} else {
			set status -1
		}
	}
	set f [open $opath r]; set out [read $f]; close $f
	set f [open $epath r]; set err [read $f]; close $f
	file delete $opath $epath
	return $status
}

# is NAME GOT WANT: SystemTap's Test::More-style check.
proc is {name got want} {
	global fail_detail
	if {[string equal $got $want]} {
		pass $name
	} else {
		set fail_detail "got \"$got\", expected \"$want\""
		fail $name
	}
}

# --- spawn and expect, over a finished run -------------------------------

set spawn_buffer ""
set spawn_status 0
set spawn_timed_out 0
set spawn_id exp0
set spawn_pid 0

proc spawn {args} {
	global spawn_buffer spawn_status spawn_timed_out spawn_pid
	set f [open "|[list {*}$args 2>@1]" r]
	fconfigure $f -translation binary
	set spawn_pid [pid $f]
	set text [read $f]
	set spawn_status 0
	if {[catch {close $f} msg opts]} {
		set code [dict get $opts -errorcode]
		if {[lindex $code 0] eq "CHILDSTATUS"} {
			set spawn_status [lindex $code 2]
		}
	}
	# the shim's time limit (timeout(1)) says 124, or 137 after KILL
	set spawn_timed_out [expr {$spawn_status == 124 || $spawn_status == 137}]
	set spawn_buffer [string map [list "\n" "\r\n"] $text]
	set ::last_output $text
	return $spawn_pid
}
proc exp_pid {args} { global spawn_pid; return $spawn_pid }
proc wait {args} {
	global spawn_pid spawn_id spawn_status
	return [list $spawn_pid $spawn_id 0 $spawn_status]
}
proc exp_continue {args} { return -code continue }
proc kill {args} {}

# The newlines of a braced expect body that end no clause: Expect reads
# the whole body as one command line.
proc one_line {body} {
	set out ""
	set depth 0
	set quoted 0
	set n [string length $body]
	for {set i 0} {$i < $n} {incr i} {
		set c [string index $body $i]
		if {$c eq "\\" && $i + 1 < $n} {
			append out $c [string index $body [incr i]]
			continue
		}
		if {$c eq "\{" && !$quoted} { incr depth }
		if {$c eq "\}" && !$quoted} { incr depth -1 }
		if {$c eq "\"" && $depth == 0} { set quoted [expr {!$quoted}] }
		if {$c eq "\n" && $depth == 0 && !$quoted} { set c " " }
		append out $c
	}
	return $out
}

# glob_end PATTERN TEXT: the index where the shortest match of PATTERN
# (Expect's unanchored glob, "^" anchors it) ends in TEXT, or -1.
proc glob_end {pattern text} {
	if {[string index $pattern 0] eq "^"} {
		set pattern [string range $pattern 1 end]
	} else {
		set pattern "*$pattern"
	}
	set n [string length $text]
	for {set e 0} {$e < $n} {incr e} {
		if {[string match $pattern [string range $text 0 $e]]} { return $e }
	}
	return -1
}

# first_match CLAUSES TEXT: {1 END ACTION} for the first clause (kind,
# pattern, action) whose pattern matches anywhere in TEXT, END the index
# where the match ends; {0 -1 ""} when none does.
proc first_match {clauses text} {
	foreach {kind pattern action} $clauses {
		switch -- $kind {
		-re {
			if {[regexp -indices -- $pattern $text m]} {
				return [list 1 [lindex $m 1] $action]
			}
		}
		-ex {
			set at [string first $pattern $text]
			if {$at >= 0} {
				return [list 1 [expr {$at + [string length $pattern] - 1}] $action]
			}
		}
		-gl {
			set end [glob_end $pattern $text]
			if {$end >= 0} { return [list 1 $end $action] }
		}
		}
	}
	return [list 0 -1 ""]
}

proc expect {args} {
	global spawn_buffer spawn_timed_out
	# The single-argument form is one braced list; Expect substitutes
	# its variables as if it had been written on one line.
	if {[llength $args] == 1} {
		set args [uplevel 1 "list [one_line [lindex $args 0]]"]
	}
	set clauses {}
	set on_eof ""
	set on_timeout ""
	set on_default ""
	for {set i 0} {$i < [llength $args]} {incr i} {
		set a [lindex $args $i]
		# (a "default" that is not switch's last arm is the keyword)
		switch -- $a {
		-timeout { incr i }
		-re - -gl - -ex {
			lappend clauses $a [lindex $args [incr i]] [lindex $args [incr i]] }
		eof { set on_eof [lindex $args [incr i]] }
		timeout { set on_timeout [lindex $args [incr i]] }
		default { set on_default [lindex $args [incr i]] }
		full_buffer { incr i }
		default { lappend clauses -gl $a [lindex $args [incr i]] }
		}
	}
	for {set rounds 0} {$rounds < 100000} {incr rounds} {
		lassign [first_match $clauses $spawn_buffer] matched end action
		if {!$matched} {
			# nothing matches what is left: the end of the output
			if {$spawn_timed_out} {
				set body $on_timeout
			} else {
				set body $on_eof
			}
			if {$body eq ""} { set body $on_default }
			set spawn_buffer ""
			return [uplevel 1 $body]
		}
		uplevel 1 [list set expect_out(buffer) [string range $spawn_buffer 0 $end]]
		set spawn_buffer [string range $spawn_buffer [expr {$end + 1}] end]
		set code [catch {uplevel 1 $action} result]
		if {$code == 4} { continue }
		return -code $code $result
	}
	error "expect: a pattern that matches nothing went on matching"
}

# --- run the .exp --------------------------------------------------------

if {[catch {uplevel #0 [list source $expfile]} msg]} {
	record ERROR [file tail $expfile] $msg
}
