package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.Role;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.TrainingStateException;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whether a closing service leaves its consumer group (RestartLatencyIT measures what that changes). */
class StreamsAppTest {

    private static Properties streams() {
        Properties properties = new Properties();
        properties.put("application.id", "gda-streams-scoring");
        properties.put("bootstrap.servers", "localhost:9092");
        return properties;
    }

    /** A conflict of state and configuration ends the service at once; a damaged state is rebuilt first. */
    @Test
    void shouldTellAStateTheConfigurationCannotReadFromADamagedOne() {
        var conflict = new StreamsException(TrainingStateException.configurationConflict("diagonal under full"));
        var damaged = new StreamsException(new TrainingStateException("behind the lineage"));
        assertEquals(true, StreamsApp.lostTrainingState(conflict));
        assertEquals(true, StreamsApp.stateConflictsWithConfiguration(conflict));
        assertEquals(true, StreamsApp.lostTrainingState(damaged));
        assertEquals(false, StreamsApp.stateConflictsWithConfiguration(damaged));
        assertEquals(false, StreamsApp.stateConflictsWithConfiguration(new IllegalStateException("other")));
    }

    @Test
    void shouldLeaveTheGroupOnCloseAsADynamicMember() {
        assertEquals(GroupMembershipOperation.LEAVE_GROUP, StreamsApp.membershipOnClose(streams()));
    }

    @Test
    void shouldLeaveTheGroupOnCloseWithTheProductDefaults() {
        Properties properties = AppConfig.defaults().withKafka("bootstrap.servers", "localhost:9092")
                .streamsProperties(Role.SCORING);
        assertEquals(GroupMembershipOperation.LEAVE_GROUP, StreamsApp.membershipOnClose(properties));
    }

    @ParameterizedTest
    @ValueSource(strings = {"group.instance.id", "consumer.group.instance.id", "main.consumer.group.instance.id"})
    void shouldStayInTheGroupOnCloseAsAStaticMemberWhicheverWayTheIdIsSet(String key) {
        Properties properties = streams();
        properties.put(key, "scorer-1");
        assertEquals(GroupMembershipOperation.REMAIN_IN_GROUP, StreamsApp.membershipOnClose(properties));
    }
}
