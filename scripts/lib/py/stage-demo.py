# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/kernel/dev/stage-demo: its two edits.
#   stage-demo.py row STAGES.DEF       append kuap_restore's row
#   stage-demo.py calls INTERRUPT.C    its stamp calls around kuap_user_restore()
import sys

what, p = sys.argv[1], sys.argv[2]
s = open(p).read()
if what == 'row':
    old = '/* Computed by the analyzer. */'
    new = ('ENTRY_STAGE(KUAP_RESTORE, kuap_restore, EXIT, ARCH_EXIT_TAIL, G, POWERPC, DEFERRED,\n'
           '\t    "powerpc kuap_user_restore: the user access lock restored last in the exit tail")\n\n' + old)
elif what == 'calls':
    old = ('\t/* Restore user access locks last */\n\tkuap_user_restore(regs);\n'
           '\tret |= current->thread_info.exit_flags;\n\tentry_stage_tail_end();\n')
    new = ('\t/* Restore user access locks last */\n'
           '\tentry_stage_tail_stage_begin(ENTRY_STAGE_KUAP_RESTORE);\n'
           '\tkuap_user_restore(regs);\n'
           '\tentry_stage_tail_stage_end(ENTRY_STAGE_KUAP_RESTORE);\n'
           '\tret |= current->thread_info.exit_flags;\n\tentry_stage_tail_end();\n')
else:
    sys.exit('stage-demo.py: row or calls, not %r' % what)
if s.count(old) != 1:
    sys.exit('stage-demo: %s: the text to change is not there once: %r' % (p, old[:60]))
open(p, 'w').write(s.replace(old, new))
