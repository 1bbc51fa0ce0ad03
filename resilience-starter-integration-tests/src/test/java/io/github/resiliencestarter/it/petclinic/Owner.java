package io.github.resiliencestarter.it.petclinic;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An owner, as spring-petclinic-rest stores it (in HSQLDB by default). */
@Entity
@Table(name = "clinic_owners")
public class Owner {

    @Id
    @GeneratedValue
    private Integer id;

    private String firstName;

    private String lastName;

    protected Owner() {
    }

    Owner(String firstName, String lastName) {
        this.firstName = firstName;
        this.lastName = lastName;
    }

    public Integer getId() {
        return id;
    }

    public String getFirstName() {
        return firstName;
    }

    public String getLastName() {
        return lastName;
    }

    public void setFirstName(String firstName) {
        this.firstName = firstName;
    }
}
