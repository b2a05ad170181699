package io.github.spool.log4j2;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A silent replay of log4j2 2.26.1's {@code PatternParser.parse(String, List, List, boolean,
 * boolean, boolean)} that records, for each converter log4j2 creates, the converter class the
 * conversion word resolved to and the options it was given. Internal API.
 *
 * <p>Why it exists: log4j2's {@code PatternFormatter}s do not expose the options their converters
 * were built from ({@code %d{pattern}{zone}}, {@code %c{36}}, {@code %X{key}}), and SpoolLayout's
 * byte segments for those conversions need them. log4j2's own parser stays the authority on what
 * the pattern means (and the only one to report errors); {@link PatternCompiler} uses an entry of
 * this list only when the list lines up with log4j2's formatters one for one and the entry's class
 * matches the formatter's converter. Anything the replay gets wrong therefore costs speed (the
 * conversion is rendered by log4j2's converter), never different output.
 *
 * <p>The states, {@code %%}, the trailing {@code %}, the longest-prefix lookup of conversion words
 * among all registered keys ({@code %dates} is {@code %d} followed by the literal {@code "ates"}),
 * nested {@code {options}} and the error paths (an unknown or empty conversion and a bad {@code .}
 * modifier become literal text) follow the source line by line.
 */
final class PatternShadow {

    /** One converter of log4j2's list. */
    static final class Entry {
        /** The class the conversion word resolved to, {@code null} for literal text. */
        final Class<?> converterClass;
        /** The options as log4j2 passes them to {@code newInstance}. */
        final String[] options;

        Entry(Class<?> converterClass, String[] options) {
            this.converterClass = converterClass;
            this.options = options;
        }
    }

    private static final Entry LITERAL = new Entry(null, new String[0]);
    private static final char ESCAPE_CHAR = '%';

    private enum State {
        LITERAL,
        CONVERTER,
        DOT,
        MIN,
        MAX
    }

    private final Map<String, Class<?>> rules;

    /**
     * @param rules the conversion-word table, see {@link ConverterRules}
     */
    PatternShadow(Map<String, Class<?>> rules) {
        this.rules = rules;
    }

    /**
     * @param pattern the pattern
     * @return one entry per converter log4j2 creates for it, in order (without the throwable
     *         converter {@code alwaysWriteExceptions} may append)
     */
    List<Entry> parse(String pattern) {
        List<Entry> out = new ArrayList<>();
        StringBuilder currentLiteral = new StringBuilder(32);
        int patternLength = pattern.length();
        State state = State.LITERAL;
        int i = 0;
        while (i < patternLength) {
            char c = pattern.charAt(i++);
            switch (state) {
                case LITERAL:
                    if (i == patternLength) {
                        currentLiteral.append(c);
                        continue;
                    }
                    if (c == ESCAPE_CHAR) {
                        if (pattern.charAt(i) == ESCAPE_CHAR) {
                            currentLiteral.append(c);
                            i++;
                        } else {
                            if (currentLiteral.length() != 0) {
                                out.add(LITERAL);
                            }
                            currentLiteral.setLength(0);
                            currentLiteral.append(c);
                            state = State.CONVERTER;
                        }
                    } else {
                        currentLiteral.append(c);
                    }
                    break;
                case CONVERTER:
                    currentLiteral.append(c);
                    if (c == '.') {
                        state = State.DOT;
                    } else if (c >= '1' && c <= '9') {
                        state = State.MIN;
                    } else if (c != '0' && c != '-') {
                        i = finalizeConverter(c, pattern, i, currentLiteral, out);
                        state = State.LITERAL;
                        currentLiteral.setLength(0);
                    }
                    break;
                case MIN:
                    currentLiteral.append(c);
                    if (c == '.') {
                        state = State.DOT;
                    } else if (c < '0' || c > '9') {
                        i = finalizeConverter(c, pattern, i, currentLiteral, out);
                        state = State.LITERAL;
                        currentLiteral.setLength(0);
                    }
                    break;
                case DOT:
                    currentLiteral.append(c);
                    if (c >= '0' && c <= '9') {
                        state = State.MAX;
                    } else if (c != '-') {
                        state = State.LITERAL; // log4j2 logs an error and keeps the text as a literal
                    }
                    break;
                default: // MAX
                    currentLiteral.append(c);
                    if (c < '0' || c > '9') {
                        i = finalizeConverter(c, pattern, i, currentLiteral, out);
                        state = State.LITERAL;
                        currentLiteral.setLength(0);
                    }
            }
        }
        if (currentLiteral.length() != 0) {
            out.add(LITERAL);
        }
        return out;
    }

    private int finalizeConverter(char c, String pattern, int start, StringBuilder currentLiteral, List<Entry> out) {
        int i = start;
        StringBuilder convBuf = new StringBuilder();
        if (Character.isUnicodeIdentifierStart(c)) {
            convBuf.append(c);
            while (i < pattern.length() && Character.isUnicodeIdentifierPart(pattern.charAt(i))) {
                convBuf.append(pattern.charAt(i));
                i++;
            }
        }
        String converterId = convBuf.toString();
        List<String> options = new ArrayList<>();
        i = extractOptions(pattern, i, options);
        String converterName = converterId;
        Class<?> converterClass = null;
        for (int n = converterId.length(); n > 0 && converterClass == null; n--) {
            converterName = converterName.substring(0, n);
            converterClass = rules.get(converterName);
        }
        if (converterClass == null) {
            out.add(LITERAL); // log4j2: "Unrecognized conversion specifier", the text printed as is
        } else {
            out.add(new Entry(converterClass, options.toArray(new String[0])));
            if (converterId.length() > converterName.length()) {
                out.add(LITERAL); // the rest of the word after the matched key
            }
        }
        return i;
    }

    /** Transcribed from log4j2's {@code PatternParser.extractOptions}. */
    private static int extractOptions(String pattern, int start, List<String> options) {
        int i = start;
        while (i < pattern.length() && pattern.charAt(i) == '{') {
            i++;
            int begin = i;
            int depth = 1;
            while (depth > 0 && i < pattern.length()) {
                char c = pattern.charAt(i);
                if (c == '{') {
                    depth++;
                } else if (c == '}') {
                    depth--;
                }
                i++;
            }
            if (depth > 0) {
                i = pattern.lastIndexOf('}');
                if (i == -1 || i < start) {
                    return begin;
                }
                return i + 1;
            }
            options.add(pattern.substring(begin, i - 1));
        }
        return i;
    }
}
