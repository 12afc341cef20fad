/* PIL._webp defines its own ImagingSectionEnter/Leave (the GIL release around encoding), as
 * PIL._imaging does: two shared objects natively, one static link here. Its copies are its own. */
#define ImagingSectionEnter ImagingSectionEnter__PIL__webp
#define ImagingSectionLeave ImagingSectionLeave__PIL__webp
