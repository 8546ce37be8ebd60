#!/bin/bash
#BSUB -o {{output}}.lsf
{{directives}}
# Written by aerun for case {{case}} ({{case_file}}): {{runs_count}} run(s), one per array index
# (LSB_JOBINDEX 1..N is task 0..N-1). Placeholders: docs/schedulers.md. LSF copies a job's output
# to its -o file when the job ends (unless the site sets LSB_STDOUT_DIRECT): the run's output goes
# to its log as it runs, and the -o file beside it keeps LSF's job report. The stamps file
# records when and where the job started and ended (queue wait, startup).
aerun_task={{task_index}}
{{runs}}
exec >"$AERUN_LOG" 2>&1
printf 'start %s %s %s\n' "$(date +%s.%N)" "$(hostname)" {{job_id}} >"$AERUN_STAMPS"
cd {{workdir|q}} || { printf 'end %s 97\n' "$(date +%s.%N)" >>"$AERUN_STAMPS"; exit 97; }
{{env}}
{{launch}}
{{run}}
printf 'end %s %s\n' "$(date +%s.%N)" "$aerun_rc" >>"$AERUN_STAMPS"
exit "$aerun_rc"
