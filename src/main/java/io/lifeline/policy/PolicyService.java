package io.lifeline.policy;

import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.security.identity.Caller;
import java.util.List;
import java.util.Map;

/** Reads and changes automation policies; changes are persisted and audited ({@code policy.updated}). */
public interface PolicyService {

    List<PolicyView> list();

    PolicyView get(PolicyName name);

    /** Replaces a policy's mode and overrides. Admins only (checked here as well as by the API gate). */
    PolicyView update(PolicyName name, PolicyMode mode, Map<String, PolicyMode> overrides, Caller caller);
}
