/* verify.h — `gpulint verify`: replays each rule's reproduction pair on a
 * GPU and measures its effect. */
#ifndef GPULINT_VERIFY_H
#define GPULINT_VERIFY_H

/* Runs `gpulint verify ARGS`; argv[0] is "verify". Returns the exit status. */
int verify_main(int argc, char **argv);

#endif
