package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;

/**
 * A writer thread's scratch for {@link NativeJsonTemplate}: chars to format a message or value
 * into, and the state of a walk over the context map (passed to a static callback, so the walk
 * allocates nothing). One per thread, never shared. Internal API.
 */
final class JsonScratch {

    /** The layout scratch's chars, set before each line (its owner trims it after a huge one). */
    StringBuilder text;
    /** The walk: the node, the line, and where its entries start (a comma goes before all but the first). */
    JsonMdcNode node;
    ByteLineBuilder out;
    int start;
}
