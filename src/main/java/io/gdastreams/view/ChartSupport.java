package io.gdastreams.view;

import io.gdastreams.lifecycle.UserError;

/**
 * Whether this jar can draw. XChart ships in gda-streams.jar only, not in the slim gda-streams-service.jar; this
 * class refers to no chart class, so that it can say so before {@link DecisionPlot} (which does) is linked.
 */
public final class ChartSupport {

    private ChartSupport() {
    }

    /** A user error naming the full jar when XChart or VectorGraphics2D is not on the class path. */
    public static void require() {
        ClassLoader loader = ChartSupport.class.getClassLoader();
        for (String name : new String[] {"org.knowm.xchart.XYChart",
                "de.erichseifert.vectorgraphics2d.VectorGraphics2D"}) {
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                throw new UserError("this jar cannot draw (gda-streams-service.jar runs train and score): run plot "
                        + "with gda-streams.jar");
            }
        }
    }
}
